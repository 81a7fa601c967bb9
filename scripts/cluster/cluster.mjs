// The deployed topology on one machine: every process kind of charts/fieldops/topology.yaml as its
// own OS process, run from its TypeScript sources on Node's type stripping (node --permission …
// services/<name>/src/main.ts: no build step), wired as the chart wires them, sharing one Kafka broker, one S3
// server and Redis. `npm run cluster -- start|stop|status` (cli.mjs) drives the one in .data/cluster;
// tests start their own on free ports in a temporary folder (cluster.d.mts).
//
/* global fetch, AbortSignal -- Node 20 globals this config does not list for .mjs */
// State lives in <dataDir>/cluster.json: each process's pid, start time, ports and log, what the
// cluster started besides (the broker, the S3 server), so `stop` ends exactly those.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, startBroker, stopBroker } from '../kafka/broker.mjs';
import { adminSecretOf, checkRedis, makeClusterPki, s3Of, stopProjectS3 } from './host-services.mjs';
import { migrateStores } from './migrate.mjs';
import { nodeFlags } from '../permissions.mjs';
import { photogrammetryEnginesOf } from './engines.mjs';
import { clusterPaths, clusterProcesses, processEnv, processGrants } from './plan.mjs';
import {
  commandLine,
  endProcess,
  isRunning,
  killTree,
  signalProcess,
  spawnProcess,
  tail,
} from './processes.mjs';

const root = resolve(import.meta.dirname, '..', '..');
/** The project's own broker (npm run kafka), reused when running. */
const PROJECT_KAFKA_DIR = join(root, '.data', 'kafka');
/** Ten processes loading their sources on two busy cores, then electing Kafka group members. */
const DEFAULT_READY_TIMEOUT_MS = 240_000;

// ---- state --------------------------------------------------------------------------------------

function readState(dataDir) {
  const file = clusterPaths(dataDir).state;
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
}

function writeState(state) {
  // It holds the operator secret (and MONGODB_URI when set): readable by its owner only.
  writeFileSync(clusterPaths(state.dataDir).state, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}

function recordOf(state, name) {
  const record = state.processes.find((p) => p.name === name);
  if (!record) throw new Error(`the cluster in ${state.dataDir} has no process ${name}`);
  return record;
}

// ---- what the processes share -------------------------------------------------------------------

/** KAFKA_BROKERS when set, else the project's broker (started unless it already runs). */
async function kafkaOf(env, dataDir) {
  // Topics and consumer groups of their own, so clusters and test runs sharing a broker never meet.
  const namespace =
    env.KAFKA_NAMESPACE ?? `cluster-${createHash('sha256').update(dataDir).digest('hex').slice(0, 10)}`;
  if (env.KAFKA_BROKERS) return { brokers: env.KAFKA_BROKERS, namespace, started: false };
  const broker = await startBroker({ dir: PROJECT_KAFKA_DIR, port: 9092 });
  return { brokers: broker.brokers, namespace, started: !broker.reused, dir: PROJECT_KAFKA_DIR };
}

// ---- readiness ----------------------------------------------------------------------------------

async function answers(url) {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}

/** Waits for /readyz of every process and the gateway's /healthz; throws naming the first to fail. */
async function waitUntilReady(state, records, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  const waiting = new Set(records.map((r) => r.name));
  while (waiting.size > 0) {
    for (const name of [...waiting]) {
      const record = recordOf(state, name);
      if (!isRunning(record)) throw new ProcessFailure(record, 'exited while starting');
      if (await answers(`http://127.0.0.1:${state.ports[name].opsPort}/readyz`)) waiting.delete(name);
    }
    if (waiting.size > 0 && Date.now() > deadline) {
      throw new ProcessFailure(recordOf(state, [...waiting][0]), `not ready after ${timeoutMs / 1000} s`);
    }
    if (waiting.size > 0) await sleep(250);
  }
  while (!(await answers(`${state.url}/healthz`))) {
    if (Date.now() > deadline) throw new ProcessFailure(recordOf(state, 'gateway'), '/healthz not answering');
    await sleep(250);
  }
}

class ProcessFailure extends Error {
  constructor(record, what) {
    super(`${record.name} (pid ${record.pid}) ${what}; the end of ${record.log}:\n${tail(record.log)}`);
    this.name = 'ProcessFailure';
  }
}

// ---- start --------------------------------------------------------------------------------------

/** Ports kept in the state across restarts, so every process comes back where its callers dial. */
async function portsOf(planned, previous, gatewayPort) {
  // The OS may hand a port it just gave out (and that is not listened on yet) out again: two
  // processes of one cluster must never be given the same one.
  const taken = new Set([gatewayPort]);
  const distinctFreePort = async () => {
    let port = await freePort();
    while (taken.has(port)) port = await freePort();
    taken.add(port);
    return port;
  };
  const ports = {};
  for (const { name, kind } of planned) {
    const before = previous?.processes.find((p) => p.name === name);
    const port =
      kind.serves === 'http'
        ? gatewayPort
        : kind.serves === 'grpc'
          ? (before?.port ?? (await distinctFreePort()))
          : 0;
    ports[name] = { port, opsPort: before?.opsPort ?? (await distinctFreePort()) };
  }
  return ports;
}

/**
 * Processes started attached (tests) die with the process that started them, even when it ends
 * without running its afterAll: a test run must never leave a cluster behind.
 */
const attached = new Set();
let exitHookInstalled = false;
function killAttachedOnExit(record) {
  attached.add(record);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const r of attached) signalProcess(r, 'SIGKILL');
  });
}

/**
 * Starts one process fenced by its kind's permissions (node --permission, scripts/permissions.mjs);
 * FIELDOPS_PERMISSION_AUDIT=1 starts it with --permission-audit instead, which refuses nothing and
 * logs what would have been refused (docs/security.md, "Auditing the table").
 */
function launch(state, planned, shared) {
  const env = processEnv(planned, shared, state.ports);
  const record = state.processes.find((p) => p.name === planned.name);
  const grants = processGrants(planned, shared);
  if (planned.kind.scratch) mkdirSync(env.FIELDOPS_SCRATCH_DIR, { recursive: true });
  const audit = (shared.env.FIELDOPS_PERMISSION_AUDIT ?? process.env.FIELDOPS_PERMISSION_AUDIT) === '1';
  const started = spawnProcess({
    entry: join(root, planned.kind.entry),
    nodeArgs: nodeFlags(grants, { audit }),
    env,
    log: clusterPaths(state.dataDir).log(planned.name),
    cwd: root,
    detached: state.detached,
  });
  Object.assign(record, started, { grants, startedAt: new Date().toISOString() });
  if (!state.detached) killAttachedOnExit(record);
  writeState(state);
  return record;
}

/** The settings every process shares, from the options and the caller's environment. */
async function sharedSettings(options, dataDir, env) {
  const redisUrl = env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  await checkRedis(redisUrl);
  const admin = adminSecretOf(env.FIELDOPS_ADMIN_SECRET, dataDir);
  const kafka = await kafkaOf(env, dataDir);
  let s3;
  try {
    s3 = await s3Of(env);
  } catch (err) {
    if (kafka.started) await stopBroker({ dir: kafka.dir });
    throw err;
  }
  let photogrammetryEngines;
  try {
    photogrammetryEngines = photogrammetryEnginesOf(env);
  } catch (err) {
    if (kafka.started) await stopBroker({ dir: kafka.dir });
    throw err;
  }
  return {
    env,
    photogrammetryEngines,
    host: options.host ?? env.HOST ?? '127.0.0.1',
    dataDir,
    kafka,
    s3Env: s3.env,
    s3,
    mongodbUri: env.MONGODB_URI,
    redisUrl,
    adminSecret: admin.secret,
    adminSecretGenerated: admin.generated,
    // Every process's certificate and the gateway's context keys (docs/security.md).
    pki: makeClusterPki(dataDir),
  };
}

/** @param {import('./cluster.d.mts').ClusterOptions} options */
export async function startCluster(options = {}) {
  const env = { ...process.env, ...options.env };
  const dataDir = resolve(options.dataDir ?? env.FIELDOPS_DATA_DIR ?? join(root, '.data', 'cluster'));
  const previous = readState(dataDir);
  if (previous?.processes.some(isRunning)) {
    throw new Error(`a cluster of ${dataDir} is running (npm run cluster -- status); stop it first`);
  }
  const paths = clusterPaths(dataDir);
  mkdirSync(paths.logs, { recursive: true });
  const shared = await sharedSettings(options, dataDir, env);
  const planned = clusterProcesses({ workers: options.workers ?? 2 });
  const gatewayPort = options.port ?? Number(env.PORT ?? previous?.ports?.gateway?.port ?? 8080);
  const state = {
    dataDir,
    detached: options.detached ?? false,
    url: `http://${shared.host === '0.0.0.0' ? '127.0.0.1' : shared.host}:${gatewayPort}`,
    adminSecret: shared.adminSecret,
    kafka: shared.kafka,
    s3: { started: shared.s3.started, dir: shared.s3.dir },
    // Everything restartProcess needs to give a process the environment it started with.
    shared: { ...shared, env: options.env ?? {}, s3: undefined },
    ports: await portsOf(planned, previous, gatewayPort),
    processes: planned.map(({ name, kind, index }) => ({ name, kind: kind.component, index })),
  };
  // Written before anything starts, so a failed start can stop what it began (stopCluster reads it).
  writeState(state);
  try {
    if (shared.mongodbUri) {
      const log = clusterPaths(dataDir).log('store-migrate');
      await migrateStores({ mongodbUri: shared.mongodbUri, log, cwd: root });
    }
    for (const p of planned) launch(state, p, shared);
    await waitUntilReady(state, state.processes, options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS);
  } catch (err) {
    // Leave nothing behind that this start began.
    await stopCluster({ dataDir });
    throw err;
  }
  return describe(state, shared.adminSecretGenerated);
}

function describe(state, adminSecretGenerated = false) {
  return {
    url: state.url,
    dataDir: state.dataDir,
    adminSecret: state.adminSecret,
    adminSecretGenerated,
    kafka: { brokers: state.kafka.brokers, namespace: state.kafka.namespace, started: state.kafka.started },
    s3: { started: state.s3.started, env: state.shared.s3Env },
    processes: state.processes.map((p) => ({ ...p, log: clusterPaths(state.dataDir).log(p.name) })),
  };
}

// ---- stop, status, kill, restart ----------------------------------------------------------------

/** Ends the processes the cluster started, then the broker and S3 server if it started them. */
export async function stopCluster(options = {}) {
  const dataDir = resolve(options.dataDir ?? process.env.FIELDOPS_DATA_DIR ?? join(root, '.data', 'cluster'));
  const state = readState(dataDir);
  if (!state) return { stopped: [], kafka: false, s3: false };
  // The gateway first, so no request arrives at a service that is already gone.
  const ordered = [...state.processes].sort((a, b) =>
    a.name === 'gateway' ? -1 : b.name === 'gateway' ? 1 : 0,
  );
  const ended = await Promise.all(ordered.map(async (p) => ((await endProcess(p)) ? p.name : undefined)));
  const kafka = state.kafka.started ? await stopBroker({ dir: state.kafka.dir }) : false;
  const s3 = state.s3.started ? await stopProjectS3(state.s3.dir) : false;
  // The state stays: `status` then shows every process down, and the next start reuses the ports.
  if (options.removeData) rmSync(dataDir, { recursive: true, force: true });
  return { stopped: ended.filter(Boolean), kafka, s3 };
}

/** One entry per process: its kind, pid, port and whether it still runs. */
export function clusterStatus(options = {}) {
  const dataDir = resolve(options.dataDir ?? process.env.FIELDOPS_DATA_DIR ?? join(root, '.data', 'cluster'));
  const state = readState(dataDir);
  if (!state) return undefined;
  return {
    ...describe(state),
    processes: state.processes.map((p) => ({
      name: p.name,
      kind: p.kind,
      pid: p.pid,
      port: state.ports[p.name].port || undefined,
      opsPort: state.ports[p.name].opsPort,
      state: isRunning(p) ? 'running' : 'down',
      log: p.log,
      grants: p.grants,
      // What the process really runs with, read from its command line while it runs.
      command: isRunning(p) ? commandLine(p.pid) : undefined,
    })),
  };
}

function processByKind(dataDir, kind, index = 0) {
  const state = readState(resolve(dataDir));
  if (!state) throw new Error(`no cluster in ${dataDir}`);
  const record = state.processes.find((p) => p.kind === kind && p.index === index);
  if (!record) throw new Error(`the cluster in ${dataDir} has no ${kind} #${index}`);
  return { state, record };
}

/** SIGKILLs one process and what it started, as a crash of its container would; resolves once it is gone. */
export async function killProcess(options, kind, index = 0) {
  const { record } = processByKind(options.dataDir, kind, index);
  if (!killTree(record)) return false;
  while (isRunning(record)) await sleep(50);
  return true;
}

/** Starts one process again (after killProcess or a crash) on its ports; resolves once it is ready. */
export async function restartProcess(options, kind, index = 0) {
  const { state, record } = processByKind(options.dataDir, kind, index);
  if (isRunning(record)) await endProcess(record);
  const planned = clusterProcesses({
    workers: state.processes.filter((p) => p.kind === 'capture-worker').length,
  }).find((p) => p.name === record.name);
  const shared = { ...state.shared, env: { ...process.env, ...state.shared.env } };
  launch(state, planned, shared);
  await waitUntilReady(state, [record], options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS);
  return { pid: record.pid };
}
