// What the local cluster runs, derived from charts/fieldops/topology.yaml exactly as the chart's
// Deployments are: one process per kind (two capture workers), each with the environment its
// Deployment gets (templates/deployment.yaml) but with 127.0.0.1 ports instead of Service names.
// Pure: no process is started here, so test/deploy/topology.test.ts can compare it with the chart.
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { grantsOf } from '../permissions.mjs';
import { sourceFolders } from '../source-folders.mjs';
import { addressVariable, readTopology } from '../topology.mjs';

const root = join(import.meta.dirname, '..', '..');

/** Variables the cluster sets for each process itself; the caller's values for them are dropped. */
const OWNED = [
  /^PORT$/,
  /^HOST$/,
  /^FIELDOPS_OPS_PORT$/,
  /^FIELDOPS_DRAIN_MS$/,
  /^FIELDOPS_DATA_DIR$/,
  /^FIELDOPS_SCRATCH_DIR$/,
  /^FIELDOPS_PHOTOGRAMMETRY_ENGINES$/,
  /^FIELDOPS_[A-Z]+_ADDR$/,
  /^MONGODB_URI$/,
  /^REDIS_URL$/,
  /^REDIS_NAMESPACE$/,
  /^FIELDOPS_ADMIN_SECRET$/,
  /^KAFKA_/,
  /^S3_/,
];

/** Secret keys (topology.yaml `secretKeys`) a process gets only when the cluster has a value. */
const SECRET_SOURCES = {
  MONGODB_URI: (shared) => shared.mongodbUri,
  REDIS_URL: (shared) => shared.redisUrl,
  FIELDOPS_ADMIN_SECRET: (shared) => shared.adminSecret,
  FIELDOPS_CONTEXT_PUBLIC_KEY: (shared) => shared.pki?.contextPublicKey,
  FIELDOPS_CONTEXT_SIGNING_KEY: (shared) => shared.pki?.contextSigningKey,
};

/**
 * One entry per OS process: `name` is the kind's component, with -1, -2 for the workers.
 * @param {{ workers?: number }} options
 */
export function clusterProcesses({ workers = 2 } = {}) {
  return readTopology().flatMap((kind) => {
    const replicas = kind.component === 'capture-worker' ? workers : 1;
    return Array.from({ length: replicas }, (_, index) => ({
      name: replicas > 1 || kind.serves === 'none' ? `${kind.component}-${index + 1}` : kind.component,
      kind,
      index,
    }));
  });
}

/** The inherited environment without what the cluster decides per process. */
function inherited(env) {
  return Object.fromEntries(
    Object.entries(env).filter(([name, value]) => value !== undefined && !OWNED.some((re) => re.test(name))),
  );
}

/**
 * The environment of one process: the caller's settings (rate limits, log level, COLMAP...), the
 * shared settings of the chart's ConfigMap (Kafka, S3 bucket), and the Deployment's own part.
 * @param {object} planned  an entry of clusterProcesses()
 * @param {object} shared   { env, host, dataDir, kafka: {brokers, namespace}, s3Env, mongodbUri, redisUrl, redisNamespace, adminSecret }
 * @param {object} ports    { [processName]: { port, opsPort } }
 */
export function processEnv(planned, shared, ports) {
  const { kind } = planned;
  const own = ports[planned.name];
  const env = {
    ...inherited(shared.env),
    // As the image runs every process (Dockerfile).
    NODE_ENV: 'production',
    KAFKA_BROKERS: shared.kafka.brokers,
    ...(shared.kafka.namespace ? { KAFKA_NAMESPACE: shared.kafka.namespace } : {}),
    // Redis keys of its own too: test clusters share the run's Redis, and one cluster's lockouts
    // (wrong operator secrets from 127.0.0.1) must not refuse the next cluster's operator.
    ...(shared.redisNamespace ? { REDIS_NAMESPACE: shared.redisNamespace } : {}),
    ...s3Config(shared.s3Env, kind.blobs),
    // Only the gateway is reachable from outside, as the chart's NetworkPolicies allow.
    HOST: kind.serves === 'http' ? shared.host : '127.0.0.1',
    FIELDOPS_OPS_PORT: String(own.opsPort),
    // No load balancer to drain away from on one machine: stop at once.
    FIELDOPS_DRAIN_MS: '0',
    // Every store in its own folder, <dataDir>/<service>, as `npm start` lays them out.
    FIELDOPS_DATA_DIR: shared.dataDir,
    // Its certificate (tls.crt, tls.key, ca.crt), as the chart mounts its Secret.
    ...(shared.pki ? { FIELDOPS_TLS_DIR: join(shared.pki.dir, kind.component) } : {}),
  };
  if (kind.scratch) env.FIELDOPS_SCRATCH_DIR = scratchDir(shared.dataDir, planned.name);
  // Decided once for every process, as the chart's ConfigMap does: capture may not start a program
  // to look for COLMAP itself (only the workers hold --allow-child-process).
  if (shared.photogrammetryEngines) env.FIELDOPS_PHOTOGRAMMETRY_ENGINES = shared.photogrammetryEngines;
  if (kind.serves !== 'none') env.PORT = String(own.port);
  for (const key of kind.secretKeys) {
    const value = SECRET_SOURCES[key]?.(shared);
    if (value !== undefined) env[key] = value;
  }
  for (const service of kind.dials) env[addressVariable(service)] = `127.0.0.1:${ports[service].port}`;
  return env;
}

/** A process's scratch space, as the chart's scratch volume: its own, under the data dir. */
export function scratchDir(dataDir, name) {
  return join(dataDir, 'scratch', name);
}

/**
 * What a process may touch (node --permission), from its kind's row of the table: its code (the
 * workspaces' sources and node_modules), its stores under the data dir, its scratch space, its
 * certificate.
 * @param {object} planned  an entry of clusterProcesses()
 * @param {{ dataDir: string, mongodbUri?: string, pki?: { dir: string } }} shared
 */
export function processGrants(planned, shared) {
  return grantsOf(planned.kind, {
    code: [...sourceFolders(), join(root, 'node_modules')],
    dataDir: shared.dataDir,
    ...(planned.kind.scratch ? { scratchDir: scratchDir(shared.dataDir, planned.name) } : {}),
    awsConfig: join(homedir(), '.aws'),
    ...(shared.pki ? { tlsDir: join(shared.pki.dir, planned.kind.component) } : {}),
    path: (shared.env?.PATH ?? process.env.PATH ?? '').split(delimiter).filter(Boolean),
    embeddedStore: !shared.mongodbUri,
  });
}

/** The bucket settings go to every process (the ConfigMap); the credentials only to `blobs` kinds. */
function s3Config(s3Env, blobs) {
  const credentials = new Set(['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY']);
  return Object.fromEntries(Object.entries(s3Env).filter(([name]) => blobs || !credentials.has(name)));
}

/** Where the cluster keeps its logs and state, under the data dir. */
export function clusterPaths(dataDir) {
  return {
    dataDir,
    state: join(dataDir, 'cluster.json'),
    logs: join(dataDir, 'logs'),
    log: (name) => join(dataDir, 'logs', `${name}.log`),
    adminSecret: join(dataDir, 'admin-secret'),
    demo: join(dataDir, 'demo-tenant.json'),
  };
}
