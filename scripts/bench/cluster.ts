// `npm run bench:cluster` (issue 22): the deployed topology against `npm start`, in one run.
//
// One cluster (scripts/cluster: the gateway, seven services and two capture workers, each its own
// OS process, on the project's Kafka, S3 server and Redis) and, beside it, the one-process platform
// of the bench's servers process (scripts/bench/servers.ts, startPlatform) on the same broker and
// Redis, so the comparison isolates the process split. Two parts, both ratios measured in the same
// run against their counterpart:
//
//   http     GET /api/v1/leads?limit=50 in a tenant of 20 000 leads and a keyed POST /api/v1/leads
//            (fresh tenant per segment), on both; the four targets take turns, forward then
//            backward, round after round (as `npm run bench` does), and each cluster row is
//            reported as a ratio of its one-process row with the band over rounds.
//   workers  batches of queued photo runs (the synthetic survey of @fieldops/survey-fixtures,
//            COLMAP, draft quality) with one capture-worker process and with two, taking turns:
//            worker 2 is stopped (SIGTERM) before a one-worker round and started again before a
//            two-worker round. Runs per minute of each round and the ratio, which worker process
//            ran each run (its COLMAP children, seen in /proc), and that each run succeeded once.
//
// Options: --only http,workers  --rounds <n> (4)  --duration <s> (2)  --warmup <s> (1)
//          --connections <n> (10)  --worker-rounds <n> (2 of each)  --runs <n> (4 per batch)
//          --keep (keep the data dirs and logs)
// Seeding is the bench's (scripts/bench/scale.ts): one lead written through the API, then crm is
// stopped and the lead cloned 19 999 times into its store, then crm started again (the cluster's
// crm alone; the servers process restarts its whole platform). BENCH_SEED_LEADS changes the count.
// The exit status is 0 whatever the numbers.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { loadConfig } from '@fieldops/kit';
import { generateSurvey, type SurveyPhoto } from '@fieldops/survey-fixtures/survey';
import { positiveOption } from '../../loadtest/node/positive-option.ts';
import { captureProject, presign, put, type RunBody, type SessionBody } from '../../test/support/capture.ts';
import { httpClient, type Client } from '../../test/support/harness.ts';
import type { MeasurementsRpc } from '../../test/support/measurements.ts';
import { freePort } from '../kafka/broker.mjs';
import { startS3, stopS3 } from '../s3/server.mjs';
import {
  clusterStatus,
  holdProcess,
  restartProcess,
  startCluster,
  stopCluster,
  type RunningCluster,
} from '../cluster/cluster.mjs';
import { drive, summarize, type Measurement, type Segment } from './load.ts';
import type { TargetSpec } from './protocol.ts';
import { compare } from './report.ts';
import { cloneRecords, scaleList } from './scale.ts';
import { asker, startServers, stopServers, waitForReady } from './servers-process.ts';
import { call, createTenant, tenantApi, type Tenant } from './tenants.ts';

const SEED_LEADS = Number(process.env.BENCH_SEED_LEADS ?? 20_000);
const NO_LIMIT = '1000000';
const PAGE = 50;
/** Seeding 20 000 leads and restarting a platform on Kafka, on a loaded machine. */
const SERVERS_STARTUP_MS = 300_000;
const RUN_TIMEOUT_MS = 1_200_000;
/** /proc counts CPU in clock ticks; USER_HZ is 100 on Linux. */
const TICK_MICROS = 10_000;

interface Options {
  parts: ('http' | 'workers')[];
  rounds: number;
  durationSec: number;
  warmupSec: number;
  connections: number;
  workerRounds: number;
  runs: number;
  keep: boolean;
}

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      rounds: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      'worker-rounds': { type: 'string' },
      runs: { type: 'string' },
      keep: { type: 'boolean', default: false },
    },
  });
  const only = (values.only ?? 'http,workers').split(',').map((part) => part.trim());
  const unknown = only.filter((part) => part !== 'http' && part !== 'workers');
  if (unknown.length) throw new Error(`--only: unknown part ${unknown.join(', ')} (http, workers)`);
  const positive = (name: string, value: string | undefined, fallback: number) =>
    positiveOption(name, value) ?? fallback;
  return {
    parts: (['http', 'workers'] as const).filter((part) => only.includes(part)),
    rounds: Math.round(positive('rounds', values.rounds, 4)),
    durationSec: positive('duration', values.duration, 2),
    warmupSec: positive('warmup', values.warmup, 1),
    connections: Math.round(positive('connections', values.connections, 10)),
    workerRounds: Math.round(positive('worker-rounds', values['worker-rounds'], 2)),
    runs: Math.round(positive('runs', values.runs, 4)),
    keep: values.keep ?? false,
  };
}

// ---- CPU of the cluster's processes, from /proc ------------------------------------------------

/** user + system CPU of `pid` (and, with `children`, of its reaped children), in ticks. */
function cpuTicks(pid: number, children = false): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const own = Number(fields[11]) + Number(fields[12]);
    return children ? own + Number(fields[13]) + Number(fields[14]) : own;
  } catch {
    return 0;
  }
}

const clusterPids = (dataDir: string): number[] =>
  (clusterStatus({ dataDir })?.processes ?? []).flatMap((p) =>
    p.state === 'running' && p.pid ? [p.pid] : [],
  );

const clusterCpuMicros = (dataDir: string): number =>
  clusterPids(dataDir).reduce((sum, pid) => sum + cpuTicks(pid) * TICK_MICROS, 0);

// Quiet = at most QUIET_TICKS of CPU over all ten processes in a QUIET_WINDOW_MS window: the
// cluster's idle work (Kafka consumer polls and heartbeats, outbox relays, fsync timers) is spread
// over ten processes, so the bar is wider than the servers process's 5 ms per 100 ms.
const QUIET_WINDOW_MS = 250;
const QUIET_TICKS = 4;
const SETTLE_LIMIT_MS = 10_000;

/** Waits until the cluster stops working after a segment; the same rule as servers.ts's settle. */
async function settleCluster(dataDir: string): Promise<{ cpuMicros: number; waitedMs: number }> {
  const started = Date.now();
  let before = clusterCpuMicros(dataDir);
  for (;;) {
    await sleep(QUIET_WINDOW_MS);
    const now = clusterCpuMicros(dataDir);
    if (now - before <= QUIET_TICKS * TICK_MICROS || Date.now() - started > SETTLE_LIMIT_MS) {
      return { cpuMicros: now, waitedMs: Date.now() - started };
    }
    before = now;
  }
}

// ---- the cluster's tenants ---------------------------------------------------------------------

/** Stops one cluster process the way `stop` does (SIGTERM: it drains), kept down by the supervisor. */
async function stopOne(dataDir: string, name: string): Promise<void> {
  const entry = clusterStatus({ dataDir })?.processes.find((p) => p.name === name);
  if (!entry || entry.state === 'held') return;
  await holdProcess({ dataDir }, entry.kind, entry.index);
}

/**
 * The reader tenant of the cluster, seeded as servers.ts seeds the one-process platform's: one lead
 * through the API, then crm stopped, the lead cloned in crm's store, crm started again.
 */
async function seedClusterReader(cluster: RunningCluster): Promise<Tenant> {
  const reader = await createTenant(cluster, 'Bench reads');
  const leads = scaleList('leads');
  // The leads template is a public POST; it needs none of the workers' RPCs.
  await leads.prepare({
    api: tenantApi(cluster, reader),
    tenantId: reader.tenant.id,
    measurements: {} as MeasurementsRpc,
  });
  await stopOne(cluster.dataDir, 'crm');
  const config = loadConfig({ FIELDOPS_DATA_DIR: cluster.dataDir }, cluster.dataDir);
  await cloneRecords(config, leads, new Map([[reader.tenant.id, SEED_LEADS]]));
  await restartProcess({ dataDir: cluster.dataDir }, 'crm');
  // The gateway's channel to crm reconnects on the next call; wait until a page comes back.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const page = await call('GET', `${cluster.url}/api/v1/leads?limit=${PAGE}`, reader.token);
    if (page.status === 200 && (page.json.items as unknown[]).length === Math.min(PAGE, SEED_LEADS))
      return reader;
    if (Date.now() > deadline) throw new Error(`cluster GET /leads after seeding: ${page.status}`);
    await sleep(250);
  }
}

// ---- part 1: page read and keyed write ---------------------------------------------------------

/** One side of the comparison: how it prepares a segment and settles after it. */
interface Side {
  prepare(target: TargetSpec): Promise<{ headers: Record<string, string>; cpuMicros: number }>;
  settle(target: TargetSpec): Promise<{ cpuMicros: number; waitedMs: number }>;
}

async function benchHttp(options: Options, cluster: RunningCluster, workDir: string): Promise<Measurement[]> {
  // The one-process platform on the cluster's broker (a namespace of its own) and Redis.
  const child = startServers(join(workDir, 'one-process'), join(workDir, 'one-process.log'), undefined, {
    KAFKA_BROKERS: cluster.kafka.brokers,
    KAFKA_NAMESPACE: `bench-one-${randomBytes(4).toString('hex')}`,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    BENCH_SEED_LEADS: String(SEED_LEADS),
  });
  try {
    const [ready, reader] = await Promise.all([
      waitForReady(child, SERVERS_STARTUP_MS),
      seedClusterReader(cluster),
    ]);
    const clusterPage = await call('GET', `${cluster.url}/api/v1/leads?limit=${PAGE}`, reader.token);
    console.log(
      `seeded ${SEED_LEADS.toLocaleString('en')} leads in each reader tenant; page of 50 = ` +
        `${ready.pageBytes} bytes (npm start), ${clusterPage.bytes.length} bytes (cluster)`,
    );
    const ask = asker(child);
    const oneProcess: Side = {
      prepare: async (target) => {
        const label = 'segment';
        const settled = await ask({
          type: 'prepare',
          target: target.id,
          freshTenant: target.keyedPost,
          label,
        });
        return { headers: settled.headers, cpuMicros: settled.cpuMicros };
      },
      settle: async (target) => ask({ type: 'settle', target: target.id }),
    };
    let writers = 0;
    let writer = await createTenant(cluster, `Bench writes ${++writers}`);
    const clusterSide: Side = {
      prepare: async (target) => {
        if (target.keyedPost) writer = await createTenant(cluster, `Bench writes ${++writers}`);
        const settled = await settleCluster(cluster.dataDir);
        const token = target.keyedPost ? writer.token : reader.token;
        return { headers: { authorization: `Bearer ${token}` }, cpuMicros: settled.cpuMicros };
      },
      settle: async () => settleCluster(cluster.dataDir),
    };
    const byId = new Map(ready.targets.map((target) => [target.id, target]));
    const oneGet = byId.get('pipeline-get');
    const onePost = byId.get('pipeline-post');
    if (!oneGet || !onePost) throw new Error('the servers process offered no pipeline rows');
    const targets: { spec: TargetSpec; side: Side }[] = [
      { spec: { ...oneGet, label: 'npm start   GET /api/v1/leads' }, side: oneProcess },
      {
        spec: {
          id: 'clusterGet-1',
          label: 'cluster     GET /api/v1/leads',
          url: `${cluster.url}/api/v1/leads?limit=${PAGE}`,
          method: 'GET',
          headers: {},
          keyedPost: false,
          baseline: oneGet.id,
        },
        side: clusterSide,
      },
      { spec: { ...onePost, label: 'npm start   POST /api/v1/leads' }, side: oneProcess },
      {
        spec: {
          id: 'clusterPost-1',
          label: 'cluster     POST /api/v1/leads',
          url: `${cluster.url}/api/v1/leads`,
          method: 'POST',
          headers: {},
          keyedPost: true,
          baseline: onePost.id,
        },
        side: clusterSide,
      },
    ];
    for (const t of targets) delete t.spec.minRatio;
    const segment = async ({ spec, side }: (typeof targets)[number], seconds: number): Promise<Segment> => {
      const ready = await side.prepare(spec);
      const load = await drive({ ...spec, headers: ready.headers }, options.connections, seconds);
      const settled = await side.settle(spec);
      return { ...load, cpuMicros: settled.cpuMicros - ready.cpuMicros, settleMs: settled.waitedMs };
    };
    process.stdout.write('warm-up:');
    for (const target of targets) {
      await segment(target, options.warmupSec);
      process.stdout.write(` ${target.spec.id}`);
    }
    process.stdout.write('\n');
    const segments = new Map<string, Segment[]>(targets.map((t) => [t.spec.id, []]));
    for (let round = 0; round < options.rounds; round++) {
      process.stdout.write(`round ${round + 1}/${options.rounds} (load ${loadavg()[0]?.toFixed(1)}):`);
      const order = round % 2 === 0 ? targets : [...targets].reverse();
      for (const target of order) {
        const measured = await segment(target, options.durationSec);
        segments.get(target.spec.id)?.push(measured);
        const settled =
          measured.settleMs > 250 ? ` (+${(measured.settleMs / 1000).toFixed(1)} s to settle)` : '';
        process.stdout.write(
          ` ${target.spec.id} ${(measured.requests / measured.seconds).toFixed(0)}/s${settled}`,
        );
      }
      process.stdout.write('\n');
    }
    return targets.map((t) => summarize(t.spec, segments.get(t.spec.id) ?? []));
  } finally {
    await stopServers(child);
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? NaN) : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
};
const band = (values: number[], digits = 2): string =>
  `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;

function httpReport(rows: Measurement[]): string[] {
  const lines = [
    'target                          req/s  p50 ms  p99 ms  CPU us/req  non-2xx/errors',
    ...rows.map(
      (row) =>
        `${row.target.label.padEnd(30)} ${row.rps.toFixed(0).padStart(6)} ${row.p50Ms.toFixed(2).padStart(7)} ` +
        `${row.p99Ms.toFixed(2).padStart(7)} ${row.cpuMicrosPerRequest.toFixed(0).padStart(11)}  ` +
        `${row.non2xx}/${row.errors}`,
    ),
    '',
  ];
  for (const c of compare(rows)) {
    lines.push(
      `${c.row.target.label.trim()} / ${c.baseline.target.label.trim()}: req/s ${c.ratio.toFixed(2)} ` +
        `(median of rounds ${median(c.roundRatios).toFixed(2)}, band ${band(c.roundRatios)}; by round ` +
        `${c.roundRatios.map((r) => r.toFixed(2)).join(' ')}), p50 ${(c.row.p50Ms / c.baseline.p50Ms).toFixed(2)}, ` +
        `p99 ${(c.row.p99Ms / c.baseline.p99Ms).toFixed(2)}, CPU per request ` +
        `${(c.row.cpuMicrosPerRequest / c.baseline.cpuMicrosPerRequest).toFixed(2)}`,
    );
  }
  return lines;
}

// ---- part 2: reconstruction throughput with one and two worker processes ------------------------

interface WorkerRound {
  workers: number;
  seconds: number;
  runsPerMinute: number;
  /** Run id -> the worker processes whose COLMAP children worked on it. */
  ranOn: Map<string, Set<string>>;
  attempts: number[];
  failed: number;
}

/** Which worker process (by name) each run's COLMAP processes belong to, sampled from /proc. */
function sampleColmap(dataDir: string, into: Map<string, Set<string>>): void {
  const workers = new Map(
    (clusterStatus({ dataDir })?.processes ?? [])
      .filter((p) => p.kind === 'capture-worker' && p.pid)
      .map((p) => [String(p.pid), p.name]),
  );
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      if (!/^Name:\s+colmap/m.test(status)) continue;
      const worker = workers.get(/^PPid:\s+(\d+)$/m.exec(status)?.[1] ?? '');
      const runId = /fieldops-colmap-(run_[A-Za-z0-9]+)-/.exec(
        readFileSync(`/proc/${pid}/cmdline`, 'utf8'),
      )?.[1];
      if (!worker || !runId) continue;
      const seen = into.get(runId) ?? new Set<string>();
      seen.add(worker);
      into.set(runId, seen);
    } catch {
      // The process ended between the listing and the read.
    }
  }
}

/** Presigns and uploads one survey as a drone client would; finalizing is left to the round. */
async function uploadedSession(api: Client, photos: SurveyPhoto[], n: number) {
  const projectId = await captureProject(api, `Bench survey ${n}`);
  const { session, uploads } = await presign(api, projectId, {
    frames: photos.map((p) => ({ name: p.name, contentType: 'image/jpeg', size: p.bytes.length })),
    source: 'drone',
    quality: 'draft',
  });
  for (const [i, photo] of photos.entries()) {
    const res = await put(uploads[i] as Parameters<typeof put>[0], photo.bytes);
    if (res.status !== 200) throw new Error(`photo upload: ${res.status}`);
  }
  return { projectId, sessionId: session.id };
}

async function setWorkers(dataDir: string, workers: number): Promise<void> {
  if (workers === 1) return stopOne(dataDir, 'capture-worker-2');
  const second = clusterStatus({ dataDir })?.processes.find((p) => p.name === 'capture-worker-2');
  if (second?.state === 'held') await restartProcess({ dataDir }, 'capture-worker', 1);
}

async function workerRound(
  api: Client,
  dataDir: string,
  photos: SurveyPhoto[],
  workers: number,
  runs: number,
  round: number,
): Promise<WorkerRound> {
  await setWorkers(dataDir, workers);
  const sessions = [];
  for (let n = 0; n < runs; n++) sessions.push(await uploadedSession(api, photos, round * 100 + n));
  // Let the consumer group settle after a worker left or joined before the batch is queued.
  await sleep(5_000);
  const ranOn = new Map<string, Set<string>>();
  const sampler = setInterval(() => sampleColmap(dataDir, ranOn), 250);
  const started = performance.now();
  try {
    const queued: { projectId: string; runId: string }[] = [];
    for (const { projectId, sessionId } of sessions) {
      const reply = await api.post(`/projects/${projectId}/capture/${sessionId}/finalize`);
      if (reply.status !== 200) throw new Error(`finalize: ${reply.status} ${JSON.stringify(reply.body)}`);
      queued.push({ projectId, runId: (reply.body.session as SessionBody).runId });
    }
    const done = new Map<string, RunBody>();
    const deadline = Date.now() + RUN_TIMEOUT_MS;
    while (done.size < queued.length) {
      for (const { projectId, runId } of queued) {
        if (done.has(runId)) continue;
        const reply = await api.get(`/projects/${projectId}/runs/${runId}`);
        // A busy machine can make one poll fail (503 while a service is slow): poll again.
        const run = reply.status === 200 ? (reply.body.run as RunBody) : undefined;
        if (run?.status === 'succeeded' || run?.status === 'failed') done.set(runId, run);
      }
      if (Date.now() > deadline)
        throw new Error(`worker round: ${done.size} of ${queued.length} runs done at the limit`);
      if (done.size < queued.length) await sleep(250);
    }
    const seconds = (performance.now() - started) / 1000;
    const results = [...done.values()];
    return {
      workers,
      seconds,
      runsPerMinute: (runs / seconds) * 60,
      ranOn,
      attempts: results.map((run) => run.attempts),
      failed: results.filter((run) => run.status !== 'succeeded').length,
    };
  } finally {
    clearInterval(sampler);
  }
}

async function benchWorkers(options: Options, cluster: RunningCluster): Promise<WorkerRound[]> {
  const tenant = await createTenant(cluster, 'Bench reconstruction');
  const api = httpClient(`${cluster.url}/api/v1`, tenant.token);
  const photos = generateSurvey({ grade: 'precise', width: 480, height: 360 }).photos;
  console.log(
    `\nworkers: batches of ${options.runs} photo runs (${photos.length} photos 480 x 360 each, COLMAP draft, ` +
      `1 thread, 1 run at a time per worker process), one worker then two, ${options.workerRounds} rounds of each`,
  );
  const rounds: WorkerRound[] = [];
  for (let r = 0; r < options.workerRounds * 2; r++) {
    // 1, 2, 2, 1, 1, 2...: each pair measured side by side, the order alternating as in part 1.
    const workers = Math.floor((r + 1) / 2) % 2 === 0 ? 1 : 2;
    const result = await workerRound(api, cluster.dataDir, photos, workers, options.runs, r);
    rounds.push(result);
    const shares = [...result.ranOn.values()].map((set) => [...set].join('+'));
    const counts = new Map<string, number>();
    for (const share of shares) counts.set(share, (counts.get(share) ?? 0) + 1);
    console.log(
      `  round ${r + 1}: ${workers} worker${workers > 1 ? 's' : ''}, ${options.runs} runs in ${result.seconds.toFixed(1)} s ` +
        `= ${result.runsPerMinute.toFixed(2)} runs/min (load ${loadavg()[0]?.toFixed(1)}); ` +
        `ran on ${[...counts].map(([name, count]) => `${name} ${count}`).join(', ') || 'unseen'}; ` +
        `attempts ${result.attempts.join(',')}; failed ${result.failed}`,
    );
  }
  return rounds;
}

function workersReport(rounds: WorkerRound[]): string[] {
  const one = rounds.filter((r) => r.workers === 1).map((r) => r.runsPerMinute);
  const two = rounds.filter((r) => r.workers === 2).map((r) => r.runsPerMinute);
  // Pairs in the order they ran: rounds 1+2, 3+4, ...
  const ratios: number[] = [];
  for (let i = 0; i + 1 < rounds.length; i += 2) {
    const a = rounds[i];
    const b = rounds[i + 1];
    if (!a || !b) continue;
    const [single, double] = a.workers === 1 ? [a, b] : [b, a];
    ratios.push(double.runsPerMinute / single.runsPerMinute);
  }
  return [
    `one worker:  ${one.map((v) => v.toFixed(2)).join(', ')} runs/min (median ${median(one).toFixed(2)})`,
    `two workers: ${two.map((v) => v.toFixed(2)).join(', ')} runs/min (median ${median(two).toFixed(2)})`,
    `two / one, per pair of rounds: ${ratios.map((v) => v.toFixed(2)).join(', ')} ` +
      `(median ${median(ratios).toFixed(2)}, band ${band(ratios)})`,
  ];
}

// ---- main ---------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const options = readOptions();
  const workDir = mkdtempSync(join(tmpdir(), 'fieldops-bench-cluster-'));
  const cpu = cpus();
  console.log(
    `fieldops bench:cluster, ${new Date().toISOString()}, node ${process.version}, ` +
      `${cpu.length} x ${cpu[0]?.model.trim() ?? 'unknown CPU'}, load average ${loadavg()
        .map((v) => v.toFixed(1))
        .join(' ')}`,
  );
  const dataDir = join(workDir, 'cluster');
  const s3Dir = join(workDir, 's3');
  let cluster: RunningCluster | undefined;
  let ownS3 = false;
  try {
    // The S3 server set by S3_*, else one of the bench's own on a free port (stopped at the end):
    // the project's on :9000 may belong to another worktree.
    let s3Env: Record<string, string> = {};
    if (!process.env.S3_BUCKET) {
      ownS3 = true;
      s3Env = (await startS3({ dir: s3Dir, port: 0 })).env;
    }
    cluster = await startCluster({
      dataDir,
      port: await freePort(),
      workers: 2,
      env: {
        FIELDOPS_ADMIN_SECRET: `foa_${randomBytes(24).toString('base64url')}`,
        FIELDOPS_RATE_READS_PER_MIN: NO_LIMIT,
        FIELDOPS_RATE_WRITES_PER_MIN: NO_LIMIT,
        FIELDOPS_BUDGET_COMPUTE: NO_LIMIT,
        // One run at a time per worker process, on one core: a worker pod sized at one CPU, so
        // that two of them can use this machine's two cores (see docs/performance.md).
        FIELDOPS_CAPTURE_WORKER_CONCURRENCY: '1',
        FIELDOPS_COLMAP_THREADS: '1',
        ...s3Env,
        // The broker the project's tests use (npm run kafka -- start) unless KAFKA_BROKERS says
        // otherwise; the cluster's topics and groups get a namespace of their own.
        KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:9092',
      },
    });
    console.log(
      `cluster up: ${cluster.processes.length} processes, gateway ${cluster.url}, Kafka ${cluster.kafka.brokers}, ` +
        `S3 ${cluster.s3.env['S3_ENDPOINT'] ?? '?'}\n`,
    );
    if (options.parts.includes('http')) {
      const rows = await benchHttp(options, cluster, workDir);
      console.log(`\n${httpReport(rows).join('\n')}`);
    }
    if (options.parts.includes('workers')) {
      const rounds = await benchWorkers(options, cluster);
      console.log(`\n${workersReport(rounds).join('\n')}`);
      const lost = readdirSync(join(dataDir, 'logs'))
        .filter((file) => file.startsWith('capture-worker'))
        .map((file) => readFileSync(join(dataDir, 'logs', file), 'utf8').split('lease was lost').length - 1)
        .reduce((a, b) => a + b, 0);
      console.log(`results discarded after a lost lease (worker logs): ${lost}`);
    }
  } finally {
    if (cluster) await stopCluster({ dataDir });
    if (ownS3) await stopS3({ dir: s3Dir });
    if (options.keep) console.log(`data and logs kept in ${workDir}`);
    else rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
