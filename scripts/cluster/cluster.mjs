// The deployed topology on one machine: every process kind of charts/fieldops/topology.yaml as its
// own OS process, run from its TypeScript sources on Node's type stripping (node --permission …
// services/<name>/src/main.ts: no build step), wired as the chart wires them, sharing one Kafka broker, one S3
// server and Redis. `npm run cluster -- start|stop|status` (cli.mjs) drives the one in .data/cluster;
// tests start their own on free ports in a temporary folder (cluster.d.mts).
//
/* global fetch, AbortSignal -- Node 20 globals this config does not list for .mjs */
// State lives in <dataDir>/cluster.json: each process's ports and log, the supervisor's pid and
// start time, what the cluster started besides (the broker, the S3 server), so `stop` ends exactly
// those. The processes run under a supervisor process of their own (process-supervisor.mjs: the
// containerized mode's probes and restart back-off), which writes their pids, readiness and
// restarts to <dataDir>/supervisor.json.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
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

const SUPERVISOR_MAIN = join(import.meta.dirname, 'process-supervisor-main.mjs');

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

/** `cluster-<hash of the data dir>`: the same cluster restarted finds its own topics and keys again. */
const clusterNamespace = (dataDir) =>
  `cluster-${createHash('sha256').update(dataDir).digest('hex').slice(0, 10)}`;

/** KAFKA_BROKERS when set, else the project's broker (started unless it already runs). */
async function kafkaOf(env, dataDir) {
  // Topics and consumer groups of their own, so clusters and test runs sharing a broker never meet.
  const namespace = env.KAFKA_NAMESPACE ?? clusterNamespace(dataDir);
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

/** What the supervisor last wrote: one entry per process (pid, state, ready, restarts, lastExit). */
function readSupervised(dataDir) {
  const file = supervisorPaths(dataDir).status;
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined; // written by rename, so only a file from a crashed write
  }
}

function supervisedOf(dataDir, name) {
  return readSupervised(dataDir)?.processes.find((p) => p.name === name);
}

function supervisorPaths(dataDir) {
  return {
    plan: join(dataDir, 'supervisor-plan.json'),
    status: join(dataDir, 'supervisor.json'),
    holds: join(dataDir, 'holds'),
    log: clusterPaths(dataDir).log('supervisor'),
  };
}

/**
 * Waits until the supervisor reports every named process ready (its /readyz probe passed), then
 * for the gateway's /healthz; throws naming the first that exited before it was ever ready, or
 * the first still waiting at the deadline.
 */
async function waitUntilReady(state, names, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  const waiting = new Set(names);
  while (waiting.size > 0) {
    if (!isRunning(state.supervisor))
      throw new Error(
        `the supervisor exited; see ${supervisorPaths(state.dataDir).log}:\n${tail(supervisorPaths(state.dataDir).log)}`,
      );
    for (const name of [...waiting]) {
      const unit = supervisedOf(state.dataDir, name);
      if (unit && failedToStart(unit))
        throw new ProcessFailure(
          state.dataDir,
          name,
          `exited while starting (${unit.lastExit.reason}, code ${unit.lastExit.code}, ${unit.restarts} restarts)`,
        );
      if (unit?.state === 'running' && unit.ready) waiting.delete(name);
    }
    if (waiting.size > 0 && Date.now() > deadline) {
      throw new ProcessFailure(state.dataDir, [...waiting][0], `not ready after ${timeoutMs / 1000} s`);
    }
    if (waiting.size > 0) await sleep(250);
  }
  while (names.includes('gateway') && !(await answers(`${state.url}/healthz`))) {
    if (Date.now() > deadline) throw new ProcessFailure(state.dataDir, 'gateway', '/healthz not answering');
    await sleep(250);
  }
}

/**
 * A process that can never start: it refused its configuration (EX_CONFIG, 78: the same again on
 * every restart), or it exited three times without once being ready. A single exit is left to the
 * supervisor's restart, as the kubelet would: on a loaded machine a first connection to Redis or
 * the broker may time out.
 */
function failedToStart(unit) {
  if (!unit.lastExit || unit.everReady) return false;
  return unit.lastExit.code === EXIT_CONFIG || unit.restarts >= 2;
}

/** sysexits' EX_CONFIG, with which a process refuses its configuration (services/kit/src/process). */
const EXIT_CONFIG = 78;

class ProcessFailure extends Error {
  constructor(dataDir, name, what) {
    const log = clusterPaths(dataDir).log(name);
    super(`${name} ${what}; the end of ${log}:\n${tail(log)}`);
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
 * A cluster started attached (a test's) dies with the process that started it, even when it ends
 * without running its afterAll: a test run must never leave a cluster behind. The supervisor also
 * watches for its parent's end (process-supervisor-main.mjs), for a parent that is SIGKILLed.
 */
const attached = new Set();
let exitHookInstalled = false;
function killAttachedOnExit(state) {
  attached.add(state);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const s of attached) {
      signalProcess(s.supervisor, 'SIGKILL');
      for (const unit of readSupervised(s.dataDir)?.processes ?? []) signalProcess(unit, 'SIGKILL');
    }
  });
}

/**
 * What the supervisor runs for one process: its entry point's source fenced by its kind's permissions (node
 * --permission, scripts/permissions.mjs); FIELDOPS_PERMISSION_AUDIT=1 runs it with
 * --permission-audit instead, which refuses nothing and logs what would have been refused
 * (docs/security.md, "Auditing the table").
 */
function unitSpec(state, planned, shared) {
  const env = processEnv(planned, shared, state.ports);
  const record = recordOf(state, planned.name);
  const grants = processGrants(planned, shared);
  if (planned.kind.scratch) mkdirSync(env.FIELDOPS_SCRATCH_DIR, { recursive: true });
  const audit = (shared.env.FIELDOPS_PERMISSION_AUDIT ?? process.env.FIELDOPS_PERMISSION_AUDIT) === '1';
  record.grants = grants;
  return {
    name: planned.name,
    kind: planned.kind.component,
    index: planned.index,
    script: join(root, planned.kind.entry),
    nodeArgs: nodeFlags(grants, { audit }),
    env,
    log: clusterPaths(state.dataDir).log(planned.name),
    cwd: root,
    opsPort: state.ports[planned.name].opsPort,
    ...(planned.kind.scratch ? { scratchDir: env.FIELDOPS_SCRATCH_DIR } : {}),
  };
}

/**
 * Starts the supervisor with every process's spec. Its plan holds each process's environment (the
 * operator secret among it): readable by its owner only, as cluster.json.
 */
function startSupervisor(state, planned, shared) {
  const paths = supervisorPaths(state.dataDir);
  rmSync(paths.status, { force: true });
  rmSync(paths.holds, { recursive: true, force: true });
  const plan = {
    statusFile: paths.status,
    holdsDir: paths.holds,
    units: planned.map((p) => unitSpec(state, p, shared)),
    ...(state.detached ? {} : { parentPid: process.pid }),
  };
  writeFileSync(paths.plan, `${JSON.stringify(plan)}\n`, { mode: 0o600 });
  const started = spawnProcess({
    script: SUPERVISOR_MAIN,
    args: [paths.plan],
    env: process.env,
    log: paths.log,
    cwd: root,
    detached: state.detached,
  });
  state.supervisor = started;
  if (!state.detached) killAttachedOnExit(state);
  writeState(state);
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
    // Lockouts, budgets and keyed-write locks of its own on a Redis that test runs share.
    redisNamespace: env.REDIS_NAMESPACE ?? clusterNamespace(dataDir),
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
  if (isRunning(previous?.supervisor) || (previous && runningUnits(previous.dataDir).length > 0)) {
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
    s3Env: shared.s3Env,
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
    startSupervisor(state, planned, shared);
    await waitUntilReady(
      state,
      state.processes.map((p) => p.name),
      options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS,
    );
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
    s3: { started: state.s3.started, env: state.s3Env ?? {} },
    processes: state.processes.map((p) => ({ ...p, log: clusterPaths(state.dataDir).log(p.name) })),
  };
}

/** The processes the supervisor last reported running that still are (their pid and start time match). */
function runningUnits(dataDir) {
  return (readSupervised(dataDir)?.processes ?? []).filter((unit) => isRunning(unit));
}

// ---- stop, status, kill, hold -------------------------------------------------------------------

/** SIGTERM to the supervisor (it ends the processes, the gateway first); SIGKILL past `graceMs`. */
async function stopSupervisor(state, graceMs = 60_000) {
  if (!signalProcess(state.supervisor, 'SIGTERM')) return;
  const deadline = Date.now() + graceMs;
  while (isRunning(state.supervisor) && Date.now() < deadline) await sleep(100);
  signalProcess(state.supervisor, 'SIGKILL');
}

/** Ends the processes the cluster started, then the broker and S3 server if it started them. */
export async function stopCluster(options = {}) {
  const dataDir = resolve(options.dataDir ?? process.env.FIELDOPS_DATA_DIR ?? join(root, '.data', 'cluster'));
  const state = readState(dataDir);
  if (!state) return { stopped: [], kafka: false, s3: false };
  const before = runningUnits(dataDir).map((unit) => unit.name);
  await stopSupervisor(state);
  // A supervisor that was itself killed leaves its processes running: end them one by one.
  await Promise.all(runningUnits(dataDir).map((unit) => endProcess(unit)));
  const kafka = state.kafka.started ? await stopBroker({ dir: state.kafka.dir }) : false;
  const s3 = state.s3.started ? await stopProjectS3(state.s3.dir) : false;
  // The state stays: `status` then shows every process down, and the next start reuses the ports.
  if (options.removeData) rmSync(dataDir, { recursive: true, force: true });
  else rmSync(supervisorPaths(dataDir).plan, { force: true });
  return { stopped: before, kafka, s3 };
}

/** One entry per process: its kind, pid, port, state, readiness and restarts (the supervisor's). */
export function clusterStatus(options = {}) {
  const dataDir = resolve(options.dataDir ?? process.env.FIELDOPS_DATA_DIR ?? join(root, '.data', 'cluster'));
  const state = readState(dataDir);
  if (!state) return undefined;
  const supervising = isRunning(state.supervisor);
  return {
    ...describe(state),
    supervising,
    processes: state.processes.map((p) => {
      const unit = supervisedOf(dataDir, p.name);
      const running = isRunning(unit);
      return {
        name: p.name,
        kind: p.kind,
        index: p.index,
        pid: running ? unit.pid : undefined,
        port: state.ports[p.name].port || undefined,
        opsPort: state.ports[p.name].opsPort,
        state: running ? 'running' : supervising && unit ? unit.state : 'down',
        ready: running && unit.ready === true,
        restarts: unit?.restarts ?? 0,
        lastExit: unit?.lastExit,
        log: clusterPaths(dataDir).log(p.name),
        grants: p.grants,
        // What the process really runs with, read from its command line while it runs.
        command: running ? commandLine(unit.pid) : undefined,
      };
    }),
  };
}

function processByKind(dataDir, kind, index = 0) {
  const state = readState(resolve(dataDir));
  if (!state) throw new Error(`no cluster in ${dataDir}`);
  const record = state.processes.find((p) => p.kind === kind && p.index === index);
  if (!record) throw new Error(`the cluster in ${dataDir} has no ${kind} #${index}`);
  return { state, record };
}

/**
 * SIGKILLs one process and what it started, as a crash of its container would; resolves once it
 * is gone. The supervisor starts it again after its back-off (awaitRestarted waits for that).
 * Answers the restart count before the kill, or undefined when it was not running.
 */
export async function killProcess(options, kind, index = 0) {
  const { state, record } = processByKind(options.dataDir, kind, index);
  const unit = supervisedOf(state.dataDir, record.name);
  if (!unit || !killTree(unit)) return undefined;
  while (isRunning(unit)) await sleep(50);
  return unit.restarts;
}

/**
 * Resolves once the supervisor has restarted the process more than `restartsBefore` times and it
 * is ready again: { pid, restarts }.
 */
export async function awaitRestarted(options, kind, index = 0, restartsBefore = 0) {
  const { state, record } = processByKind(options.dataDir, kind, index);
  const deadline = Date.now() + (options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS);
  for (;;) {
    const unit = supervisedOf(state.dataDir, record.name);
    if (unit && unit.restarts > restartsBefore && unit.state === 'running' && unit.ready) {
      return { pid: unit.pid, restarts: unit.restarts };
    }
    if (!isRunning(state.supervisor)) throw new Error(`the supervisor of ${state.dataDir} is gone`);
    if (Date.now() > deadline)
      throw new ProcessFailure(
        state.dataDir,
        record.name,
        `not restarted and ready in time (${unit?.state})`,
      );
    await sleep(100);
  }
}

/** Scales one process to zero: the supervisor ends it (SIGTERM, its grace) and keeps it down. */
export async function holdProcess(options, kind, index = 0) {
  const { state, record } = processByKind(options.dataDir, kind, index);
  mkdirSync(supervisorPaths(state.dataDir).holds, { recursive: true });
  writeFileSync(join(supervisorPaths(state.dataDir).holds, record.name), '');
  for (;;) {
    const unit = supervisedOf(state.dataDir, record.name);
    if (unit?.state === 'held' && !isRunning(unit)) return;
    await sleep(100);
  }
}

/**
 * Lifts a hold (holdProcess): the supervisor starts the process; resolves once it is ready. With
 * `envChanges` ({ variable: value, or null to unset }) it starts, and restarts from then on, with
 * its environment so changed: a rollout of one Deployment with new settings.
 */
export async function restartProcess(options, kind, index = 0, envChanges = undefined) {
  const { state, record } = processByKind(options.dataDir, kind, index);
  const hold = join(supervisorPaths(state.dataDir).holds, record.name);
  const before = supervisedOf(state.dataDir, record.name)?.restarts ?? 0;
  if (!existsSync(hold))
    throw new Error(`${record.name} is not held (holdProcess): the supervisor restarts it itself`);
  if (envChanges) {
    // Beside the hold, readable by its owner only (as the plan, which holds the environment too).
    writeFileSync(`${hold}.env.json`, `${JSON.stringify(envChanges)}\n`, { mode: 0o600 });
  }
  unlinkSync(hold);
  return awaitRestarted(options, kind, index, before);
}
