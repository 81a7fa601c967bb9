// A real S3 server for the tests, CI, the cluster command and a contributor's machine, started by
// the project itself: S3Proxy (pinned in pom.xml, resolved from Maven Central by `mvn`: jars in
// ~/.m2, the classpath cached under ~/.cache/fieldops/s3) checks AWS signatures V2 and V4, presigned
// URLs included, and stores objects through Apache jclouds' filesystem provider. The JVM runs in the
// background with its data, configuration, credentials, pid and log in one folder. `npm run s3 --
// start|stop|status` (cli.mjs) drives the instance in .data/s3 on 127.0.0.1:9000; a test or the
// cluster command may start one of its own in another folder, on a free port (port 0).
import { CreateBucketCommand, HeadBucketCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  freePort,
  isJvmOf,
  keptInstance,
  readPid,
  resolveMavenClasspath,
  spawnJvm,
  stopJvm,
  tail,
} from '../jvm/background-jvm.mjs';

export { freePort };

const here = dirname(fileURLToPath(import.meta.url));
const POM = join(here, 'pom.xml');
const LOGBACK = join(here, 'logback.xml');
const MAIN_CLASS = 'org.gaul.s3proxy.Main';
export const BUCKET = 'fieldops';
export const REGION = 'us-east-1';
/** A JVM under load on two shared cores can take a while to start. */
const DEFAULT_READY_TIMEOUT_MS = 90_000;

/** Resolves the server's jars with Maven once per pinned version; later calls read the cache. */
export const resolveClasspath = () =>
  resolveMavenClasspath({
    pom: POM,
    versionProperty: 's3proxy.version',
    name: 's3',
    cacheDir: process.env.FIELDOPS_S3_CACHE,
    what: 'S3Proxy',
  });

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
const instanceOf = (dir, port) =>
  keptInstance({
    dir,
    stateFile: paths(dir).state,
    port,
    what: 'an S3 server',
    choose: async (chosen) => ({ port: chosen }),
  });

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

/** True when `pid` is alive and is the JVM of this instance (not a recycled pid). */
const isOurServer = (pid, configFile) => isJvmOf(pid, MAIN_CLASS, configFile);

/**
 * The bucket's status for our credentials, through the AWS SDK the platform itself uses: 200 when
 * it answers, 404 when it is missing, 403 when the keys are refused, 0 when nothing answers.
 */
async function bucketStatus(port, credentials, create = false) {
  const client = new S3Client({
    endpoint: `http://127.0.0.1:${port}`,
    region: REGION,
    forcePathStyle: true,
    credentials,
    maxAttempts: 1,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  try {
    await client.send(
      create ? new CreateBucketCommand({ Bucket: BUCKET }) : new HeadBucketCommand({ Bucket: BUCKET }),
    );
    return 200;
  } catch (error) {
    return error instanceof S3ServiceException ? (error.$metadata.httpStatusCode ?? 0) : 0;
  } finally {
    client.destroy();
  }
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
const bucketAnswers = async (state, credentials) => (await bucketStatus(state.port, credentials)) === 200;

/** Waits until the server answers a signed request for the bucket, creating the bucket once. */
async function waitUntilReady(p, state, credentials, pid, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!(await isOurServer(pid, p.config))) {
      throw new Error(`the S3 server exited while starting; its log: ${p.log}\n${await tail(p.log)}`);
    }
    const status = await bucketStatus(state.port, credentials);
    if (status === 200) return;
    if (status === 404) {
      const created = await bucketStatus(state.port, credentials, true);
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
  const pid = await spawnJvm({
    classpath,
    jvmArgs: ['-Xms64m', '-Xmx512m', '-Djava.awt.headless=true', `-Dlogback.configurationFile=${LOGBACK}`],
    mainClass: MAIN_CLASS,
    args: ['--properties', p.config],
    log: p.log,
    pidFile: p.pid,
  });
  try {
    await waitUntilReady(p, state, credentials, pid, readyTimeoutMs);
  } catch (error) {
    // A server that never came up is not left behind holding the port.
    await stopS3({ dir, kill: true });
    throw error;
  }
  return describe(p, state, credentials, pid, false);
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
  return stopJvm({ pidFile: p.pid, mainClass: MAIN_CLASS, configFile: p.config, kill });
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
