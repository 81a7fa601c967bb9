// A real S3 server for the tests, CI, the cluster command and a contributor's machine, started by
// the project itself: S3Proxy (pinned in pom.xml, resolved from Maven Central by `mvn`: jars in
// ~/.m2, the classpath cached under ~/.cache/fieldops/s3) checks AWS signatures V2 and V4, presigned
// URLs included, and stores objects through Apache jclouds' filesystem provider. The JVM runs in the
// background with its data, configuration, credentials, pid and log in one folder. `npm run s3 --
// start|stop|status` (cli.mjs) drives the instance in .data/s3 on 127.0.0.1:9000; a test or the
// cluster command may start one of its own in another folder, on a free port (port 0).
import { execFile, spawn } from 'node:child_process';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const POM = join(here, 'pom.xml');
const LOGBACK = join(here, 'logback.xml');
const MAIN_CLASS = 'org.gaul.s3proxy.Main';
export const BUCKET = 'fieldops';
export const REGION = 'us-east-1';
/** A JVM under load on two shared cores can take a while to start. */
const DEFAULT_READY_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 30_000;

/** Where the classpath of the pinned release is cached (the jars themselves are in ~/.m2). */
function cacheDir() {
  return process.env.FIELDOPS_S3_CACHE ?? join(homedir(), '.cache', 'fieldops', 's3');
}

async function pinnedVersion() {
  const pom = await readFile(POM, 'utf8');
  const match = /<s3proxy\.version>([^<]+)<\/s3proxy\.version>/.exec(pom);
  if (match === null) throw new Error(`${POM} does not pin <s3proxy.version>`);
  return match[1];
}

/** Resolves the server's jars with Maven once per pinned version; later calls read the cache. */
export async function resolveClasspath() {
  const version = await pinnedVersion();
  const file = join(cacheDir(), `classpath-${version}.txt`);
  if (existsSync(file)) {
    const cached = (await readFile(file, 'utf8')).trim();
    if (cached.split(':').every((jar) => existsSync(jar))) return cached;
  }
  await mkdir(cacheDir(), { recursive: true });
  try {
    await promisify(execFile)(
      'mvn',
      ['-q', '-B', '-f', POM, 'dependency:build-classpath', `-Dmdep.outputFile=${file}`],
      { maxBuffer: 16 * 1024 * 1024 },
    );
  } catch (error) {
    const output = `${error.stdout ?? ''}${error.stderr ?? ''}`.trim().split('\n').slice(-15).join('\n');
    throw new Error(`mvn could not resolve S3Proxy ${version} (${POM}):\n${output}`, { cause: error });
  }
  return (await readFile(file, 'utf8')).trim();
}

/** A port nobody listens on right now, from the operating system. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function paths(dir) {
  return {
    dir,
    data: join(dir, 'data'),
    config: join(dir, 's3proxy.properties'),
    state: join(dir, 'instance.json'),
    credentials: join(dir, 'credentials.json'),
    pid: join(dir, 'server.pid'),
    log: join(dir, 'server.log'),
  };
}

/** The instance's port, chosen on first use (0: a free one) and kept, so clients find it again. */
async function instanceOf(dir, port) {
  const p = paths(dir);
  if (existsSync(p.state)) {
    const state = JSON.parse(await readFile(p.state, 'utf8'));
    if (port !== undefined && port !== 0 && state.port !== port) {
      throw new Error(
        `${dir} holds an S3 server for port ${state.port}, not ${port}; use that port, or stop it and remove the folder`,
      );
    }
    return state;
  }
  const state = { port: port === undefined || port === 0 ? await freePort() : port };
  await mkdir(dir, { recursive: true });
  await writeFile(p.state, `${JSON.stringify(state, null, 2)}\n`);
  return state;
}

/** The access key pair, generated once per folder and kept there readable by its owner only. */
async function credentialsOf(p) {
  if (existsSync(p.credentials)) {
    await chmod(p.credentials, 0o600);
    return JSON.parse(await readFile(p.credentials, 'utf8'));
  }
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const id = [...randomBytes(16)].map((byte) => alphabet[byte % 32]).join('');
  const credentials = {
    accessKeyId: `FO${id}`,
    secretAccessKey: randomBytes(30).toString('base64').replaceAll('/', '_').replaceAll('+', '-'),
  };
  await mkdir(p.dir, { recursive: true });
  await writeFile(p.credentials, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  return credentials;
}

function serverProperties(state, credentials, dataDir) {
  return [
    '# Written by scripts/s3/server.mjs: S3Proxy on the jclouds filesystem provider, signatures checked.',
    `s3proxy.endpoint=http://127.0.0.1:${state.port}`,
    's3proxy.authorization=aws-v2-or-v4',
    `s3proxy.identity=${credentials.accessKeyId}`,
    `s3proxy.credential=${credentials.secretAccessKey}`,
    'jclouds.provider=filesystem',
    `jclouds.filesystem.basedir=${dataDir}`,
    // The filesystem provider needs an identity of its own; it grants nothing.
    'jclouds.identity=local',
    'jclouds.credential=local',
    '',
  ].join('\n');
}

async function readPid(file) {
  try {
    const pid = Number((await readFile(file, 'utf8')).trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** True when `pid` is alive and is the JVM of this instance (not a recycled pid). */
async function isOurServer(pid, configFile) {
  try {
    const cmdline = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
    return cmdline.includes(MAIN_CLASS) && cmdline.includes(configFile);
  } catch {
    return false;
  }
}

const sha256Hex = (data) => createHash('sha256').update(data).digest('hex');
const hmac = (key, data) => createHmac('sha256', key).update(data).digest();

/**
 * One request signed with AWS Signature V4 (path-style, empty body), resolving its status, or 0 when
 * nothing answers. Enough to prove the server checks our credentials and to create the bucket.
 */
export function signedRequest({ port, method, path, accessKeyId, secretAccessKey, timeoutMs = 2_000 }) {
  const amzDate = new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const host = `127.0.0.1:${port}`;
  const payloadHash = sha256Hex('');
  const signedHeaders = 'host;x-amz-content-sha256;x-amz-date';
  const canonical = [
    method,
    path,
    '',
    `host:${host}\nx-amz-content-sha256:${payloadHash}\nx-amz-date:${amzDate}\n`,
    signedHeaders,
    payloadHash,
  ].join('\n');
  const scope = `${day}/${REGION}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, day), REGION), 's3'), 'aws4_request');
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  const headers = {
    host,
    'x-amz-content-sha256': payloadHash,
    'x-amz-date': amzDate,
    authorization: `AWS4-HMAC-SHA256 Credential=${accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
    ...(method === 'PUT' ? { 'content-length': '0' } : {}),
  };
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, timeout: timeoutMs }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(0));
    req.end();
  });
}

/** Whether anything answers HTTP on the port (an S3 server refuses the unsigned request). */
function answersHttp(port, timeoutMs = 500) {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, method: 'GET', path: '/', timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(true);
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(false));
    req.end();
  });
}

/** The bucket answers a signed HEAD with our credentials: the server is up and checks them. */
const bucketAnswers = async (state, credentials) =>
  (await signedRequest({ port: state.port, method: 'HEAD', path: `/${BUCKET}`, ...credentials })) === 200;

async function tail(file, lines = 20) {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.trim().split('\n').slice(-lines).join('\n');
}

/** Waits until the server answers a signed request for the bucket, creating the bucket once. */
async function waitUntilReady(p, state, credentials, pid, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!(await isOurServer(pid, p.config))) {
      throw new Error(`the S3 server exited while starting; its log: ${p.log}\n${await tail(p.log)}`);
    }
    const status = await signedRequest({
      port: state.port,
      method: 'HEAD',
      path: `/${BUCKET}`,
      ...credentials,
    });
    if (status === 200) return;
    if (status === 404) {
      const created = await signedRequest({
        port: state.port,
        method: 'PUT',
        path: `/${BUCKET}`,
        ...credentials,
      });
      if (created === 200 || created === 409) continue;
      throw new Error(
        `the S3 server refused to create the bucket ${BUCKET} (HTTP ${created}); its log: ${p.log}`,
      );
    }
    if (status === 403) {
      throw new Error(
        `the S3 server on port ${state.port} refuses the credentials of ${p.credentials}; its log: ${p.log}`,
      );
    }
    await sleep(250);
  }
  throw new Error(
    `the S3 server did not answer within ${timeoutMs} ms; its log: ${p.log}\n${await tail(p.log)}`,
  );
}

/**
 * Starts the S3 server of `dir` (default port 9000; 0 picks a free one, kept for the folder) unless
 * it runs already, creates the bucket, and resolves once a signed request succeeds.
 */
export async function startS3({ dir, port = 9000, readyTimeoutMs = DEFAULT_READY_TIMEOUT_MS } = {}) {
  if (!dir) throw new Error('startS3 needs the folder of the instance ({ dir })');
  const p = paths(dir);
  const state = await instanceOf(dir, port);
  const credentials = await credentialsOf(p);
  const running = await readPid(p.pid);
  if (running !== undefined && (await isOurServer(running, p.config))) {
    await waitUntilReady(p, state, credentials, running, readyTimeoutMs);
    return describe(p, state, credentials, running, true);
  }
  if (await answersHttp(state.port)) {
    throw new Error(`something else answers on 127.0.0.1:${state.port}; it is not the S3 server of ${dir}`);
  }
  const classpath = await resolveClasspath();
  await mkdir(p.data, { recursive: true });
  // It holds the secret too: owner only.
  await writeFile(p.config, serverProperties(state, credentials, p.data), { mode: 0o600 });
  await chmod(p.config, 0o600);
  const out = openSync(p.log, 'a');
  const child = spawn(
    'java',
    [
      '-Xms64m',
      '-Xmx512m',
      '-Djava.awt.headless=true',
      `-Dlogback.configurationFile=${LOGBACK}`,
      '-cp',
      classpath,
      MAIN_CLASS,
      '--properties',
      p.config,
    ],
    { detached: true, stdio: ['ignore', out, out] },
  );
  closeSync(out);
  child.unref();
  await writeFile(p.pid, `${child.pid}\n`);
  try {
    await waitUntilReady(p, state, credentials, child.pid, readyTimeoutMs);
  } catch (error) {
    // A server that never came up is not left behind holding the port.
    await stopS3({ dir, kill: true });
    throw error;
  }
  return describe(p, state, credentials, child.pid, false);
}

function describe(p, state, credentials, pid, reused) {
  const endpoint = `http://127.0.0.1:${state.port}`;
  return {
    endpoint,
    port: state.port,
    bucket: BUCKET,
    region: REGION,
    accessKeyId: credentials.accessKeyId,
    secretAccessKey: credentials.secretAccessKey,
    pid,
    log: p.log,
    dir: p.dir,
    reused,
    env: {
      S3_ENDPOINT: endpoint,
      S3_BUCKET: BUCKET,
      S3_REGION: REGION,
      S3_ACCESS_KEY_ID: credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
      // S3Proxy answers 501 to the SDK's default flexible checksums (docs/production-adapters.md#s3).
      S3_CHECKSUMS: 'when_required',
    },
  };
}

/** Ends exactly the server this folder started (TERM, then KILL after 30 s); false if none ran. */
export async function stopS3({ dir, kill = false } = {}) {
  if (!dir) throw new Error('stopS3 needs the folder of the instance ({ dir })');
  const p = paths(dir);
  const pid = await readPid(p.pid);
  if (pid === undefined || !(await isOurServer(pid, p.config))) {
    await rm(p.pid, { force: true });
    return false;
  }
  process.kill(pid, kill ? 'SIGKILL' : 'SIGTERM');
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (await isOurServer(pid, p.config)) {
    if (Date.now() > deadline) process.kill(pid, 'SIGKILL');
    await sleep(100);
  }
  await rm(p.pid, { force: true });
  return true;
}

/** { running: false, log, dir } or the running server's description with `answering`. */
export async function s3Status({ dir } = {}) {
  if (!dir) throw new Error('s3Status needs the folder of the instance ({ dir })');
  const p = paths(dir);
  const pid = await readPid(p.pid);
  const running = pid !== undefined && (await isOurServer(pid, p.config));
  if (!running || !existsSync(p.state) || !existsSync(p.credentials))
    return { running: false, log: p.log, dir };
  const state = JSON.parse(await readFile(p.state, 'utf8'));
  const credentials = JSON.parse(await readFile(p.credentials, 'utf8'));
  return {
    running: true,
    answering: await bucketAnswers(state, credentials),
    ...describe(p, state, credentials, pid, true),
  };
}

/** The `export`-able line the CLI prints: every variable of `env`, space-separated. */
export function envLine(env) {
  return Object.entries(env)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');
}
