// What every local cluster shares with the machine, whether its kinds run as processes
// (cluster.mjs) or as containers (containers/containers.mjs): the operator secret kept in its data
// dir, the S3 server (S3_* or the project's own) and Redis, which must answer before anything starts.
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { URL } from 'node:url';
import { clusterPaths } from './plan.mjs';

const root = resolve(import.meta.dirname, '..', '..');
/** The project's own S3 server (npm run s3), reused when running. */
const PROJECT_S3_DIR = join(root, '.data', 's3');

/** The operator secret, as `npm start` keeps it (platform/src/admin-secret.ts): set, or generated once. */
export function adminSecretOf(configured, dataDir) {
  if (configured) return { secret: configured, generated: false };
  const file = clusterPaths(dataDir).adminSecret;
  if (existsSync(file)) return { secret: readFileSync(file, 'utf8').trim(), generated: false };
  const secret = `foa_${randomBytes(32).toString('base64url')}`;
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return { secret, generated: true };
}

/** S3_* when S3_BUCKET is set, else the project's S3 server (scripts/s3/server.mjs). */
export async function s3Of(env) {
  if (env.S3_BUCKET) {
    const s3Env = Object.fromEntries(Object.entries(env).filter(([name]) => name.startsWith('S3_')));
    return { env: s3Env, started: false };
  }
  let server;
  try {
    // Imported only when needed: a cluster pointed at an S3 of its own does not need it.
    server = await import('../s3/server.mjs');
  } catch (err) {
    throw new Error(
      `no S3 server: set S3_BUCKET, S3_ENDPOINT and the other S3_* variables, or add scripts/s3 (npm run s3) (${err.message})`,
      { cause: err },
    );
  }
  const s3 = await server.startS3({ dir: PROJECT_S3_DIR });
  return { env: s3.env, started: !s3.reused, dir: PROJECT_S3_DIR };
}

/** Resolves once Redis answers PING at `url` (redis:// only); the gateway refuses to run without it. */
export async function checkRedis(url) {
  const { hostname, port } = new URL(url);
  const answered = await new Promise((resolveAnswer) => {
    const socket = connect({ host: hostname || '127.0.0.1', port: Number(port || 6379) });
    const done = (ok) => {
      socket.destroy();
      resolveAnswer(ok);
    };
    socket.setTimeout(5_000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    // +PONG, or -NOAUTH from a Redis with a password: either way a Redis answers there.
    socket.once('data', (chunk) => done(/^[+-]/.test(chunk.toString())));
  });
  if (!answered) throw new Error(`Redis does not answer at ${url}: start it, or set REDIS_URL`);
}

/** Stops the project's S3 server of `dir` (when a cluster started it). */
export async function stopProjectS3(dir) {
  const server = await import('../s3/server.mjs');
  return server.stopS3({ dir });
}

/**
 * The cluster's PKI in <dataDir>/pki (make-pki.ts, on Node's type stripping: the same code as the one-process
 * platform's CA), made fresh at each start: { dir, contextPublicKey, contextSigningKey } (PEM).
 * A process gets FIELDOPS_TLS_DIR=<dir>/<kind>; the tests use <dir>/tests.
 */
export function makeClusterPki(dataDir) {
  const dir = join(dataDir, 'pki');
  rmSync(dir, { recursive: true, force: true });
  execFileSync(process.execPath, [join(root, 'scripts', 'cluster', 'make-pki.ts'), dir], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return {
    dir,
    contextPublicKey: readFileSync(join(dir, 'context-public.pem'), 'utf8'),
    contextSigningKey: readFileSync(join(dir, 'context-signing.pem'), 'utf8'),
  };
}

/**
 * The PKI as chart values (the containerized cluster): the context keys as secrets and each kind's
 * certificate inline (internalTls.certificates), read from makeClusterPki's files.
 */
export function pkiValues(pki, components) {
  const read = (component, file) => readFileSync(join(pki.dir, component, file), 'utf8');
  return {
    contextPublicKey: pki.contextPublicKey,
    contextSigningKey: pki.contextSigningKey,
    certificates: Object.fromEntries(
      components.map((c) => [
        c,
        { tlsCrt: read(c, 'tls.crt'), tlsKey: read(c, 'tls.key'), caCrt: read(c, 'ca.crt') },
      ]),
    ),
  };
}
