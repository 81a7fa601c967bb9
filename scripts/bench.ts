// `npm run bench`: requests per second and p50/p99 latency of GET /api/v1/leads (page of 50) and
// keyed POST /api/v1/leads through the full gateway pipeline, beside a bare node:http server
// answering a body of the same size and a plain Express route making one gRPC call, all measured
// in one run and printed as ratios (docs/performance.md explains the rows).
//
// This process is the load generator. The servers run in a child process (scripts/bench/servers.ts)
// so they never share an event loop with autocannon, and so the platform's request log (one line
// per request at the default LOG_LEVEL) goes to a file rather than this terminal.
//
// Every target gets the same connections and time: a warm-up, then --rounds segments of --duration
// seconds, the targets taking turns (forward, then backward) so that a change in background load
// during the run falls on every row alike instead of on whichever ran last.
//
// Then the measurement rows (scripts/bench/measurements.ts): the engine's points per second on a
// 10-million-point cloud, and the time from finalizing a capture to its quantities being readable.
//
// Options: --rounds <n> (4)  --duration <s per round> (2)  --warmup <s> (1)  --connections <n> (10)
//          --only <id,...> (bare,plain-get,pipeline-get,plain-post,pipeline-post,capture-e2e,engine)
//          --engine-points <n> (10000000)  --captures <n> (5, timed after one warm-up capture)
//          --profile  (profile the servers process during each segment and summarise where each
//                      row's CPU goes; see docs/performance.md)
//          --keep     (keep the temporary data dir and platform log)
//          --scale-lists <id,...> (leads,customers,deals,projects,records,takeoffs,exports,audit)
//          --scale-sizes <n,...>  (1000,10000,100000): the scale series (--only scale runs it alone),
//                     the same page read with each number of records in the tenant, as a cost
//                     ratio to the first size; scripts/bench/scale.ts says how tenants are seeded
//          --one-tenant (keyed POST segments keep writing into one tenant per row instead of a fresh
//                        one each; shows how capture slows down as a tenant grows)
//          --export-traces (the servers export their recorded spans over OTLP/HTTP to a receiver in
//                        this process, at the default sampling unless OTEL_TRACES_SAMPLER* say
//                        otherwise: what exporting costs the hot path; scripts/bench/otlp-receiver.ts)
// LOG_LEVEL and FIELDOPS_FSYNC are passed on to the platform. The exit status is 0 whatever the
// numbers: a benchmark reports, it does not pass or fail.
import type { ChildProcess } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { positiveOption } from '../loadtest/node/positive-option.ts';
import { drive, summarize, type Measurement, type Segment } from './bench/load.ts';
import { startOtlpReceiver } from './bench/otlp-receiver.ts';
import type { TargetId, TargetSpec } from './bench/protocol.ts';
import { asker, startServers, stopServers, waitForReady } from './bench/servers-process.ts';
import { segmentLabel, summarizeProfiles } from './bench/profile.ts';
import { table, verdicts, warnings } from './bench/report.ts';
import { scaleOptions, scaleTable, type ScaleOptions, type ScaleSeries } from './bench/scale-series.ts';
import {
  finalizeToQuantities,
  measureEngineThroughput,
  type CaptureTiming,
  type EngineThroughput,
} from './bench/measurements.ts';

const TARGET_IDS: readonly TargetId[] = ['bare', 'plain-get', 'pipeline-get', 'plain-post', 'pipeline-post'];
/** Rows that are not HTTP load: see scripts/bench/measurements.ts. */
const MEASUREMENT_IDS = ['capture-e2e', 'engine'] as const;
/** The scale series (scripts/bench/scale-series.ts) is selected like a row. */
const SCALE_ID = 'scale';
type MeasurementId = (typeof MEASUREMENT_IDS)[number];
const ALL_IDS: readonly string[] = [...TARGET_IDS, ...MEASUREMENT_IDS, SCALE_ID];

interface Options {
  connections: number;
  rounds: number;
  /** Seconds per target per round. */
  durationSec: number;
  warmupSec: number;
  only: TargetId[];
  measurements: MeasurementId[];
  enginePoints: number;
  captures: number;
  profile: boolean;
  keep: boolean;
  oneTenant: boolean;
  exportTraces: boolean;
  scale: ScaleOptions | undefined;
}

function positive(name: string, value: string | undefined, fallback: number): number {
  return positiveOption(name, value) ?? fallback;
}

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      only: { type: 'string' },
      'engine-points': { type: 'string' },
      captures: { type: 'string' },
      profile: { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      'one-tenant': { type: 'boolean', default: false },
      'export-traces': { type: 'boolean', default: false },
      'scale-lists': { type: 'string' },
      'scale-sizes': { type: 'string' },
    },
  });
  const only = (values.only ?? ALL_IDS.join(',')).split(',').map((id) => id.trim());
  const unknown = only.filter((id) => !ALL_IDS.includes(id));
  if (unknown.length) throw new Error(`--only: unknown target ${unknown.join(', ')} (${ALL_IDS.join(', ')})`);
  return {
    rounds: Math.round(positive('rounds', values.rounds, 4)),
    durationSec: positive('duration', values.duration, 2),
    warmupSec: positive('warmup', values.warmup, 1),
    connections: Math.round(positive('connections', values.connections, 10)),
    only: TARGET_IDS.filter((id) => only.includes(id)),
    measurements: MEASUREMENT_IDS.filter((id) => only.includes(id)),
    enginePoints: Math.round(positive('engine-points', values['engine-points'], 10_000_000)),
    captures: Math.round(positive('captures', values.captures, 5)),
    profile: values.profile ?? false,
    keep: values.keep ?? false,
    oneTenant: values['one-tenant'] ?? false,
    exportTraces: values['export-traces'] ?? false,
    scale: only.includes(SCALE_ID) ? scaleOptions(values['scale-lists'], values['scale-sizes']) : undefined,
  };
}

async function countLines(file: string): Promise<number> {
  let lines = 0;
  for await (const chunk of createReadStream(file)) {
    const bytes = chunk as Buffer;
    for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) lines++;
  }
  return lines;
}

async function run(child: ChildProcess, targets: TargetSpec[], options: Options): Promise<Measurement[]> {
  const ask = asker(child);
  /**
   * One segment of load. Keyed POST rows start it in a fresh tenant (unless --one-tenant), and it is
   * charged with the servers' CPU from a quiet start until they are quiet again.
   */
  const segment = async (target: TargetSpec, seconds: number, round?: number): Promise<Segment> => {
    const freshTenant = target.keyedPost && !options.oneTenant;
    const label = segmentLabel(round);
    const ready = await ask({ type: 'prepare', target: target.id, freshTenant, label });
    const load = await drive({ ...target, headers: ready.headers }, options.connections, seconds);
    const settled = await ask({ type: 'settle', target: target.id });
    const mainMicros =
      settled.mainMicros === undefined || ready.mainMicros === undefined
        ? undefined
        : settled.mainMicros - ready.mainMicros;
    const fullCollections =
      settled.fullCollections === undefined || ready.fullCollections === undefined
        ? undefined
        : settled.fullCollections - ready.fullCollections;
    return {
      ...load,
      cpuMicros: settled.cpuMicros - ready.cpuMicros,
      ...(mainMicros === undefined ? {} : { mainMicros }),
      ...(fullCollections === undefined ? {} : { fullCollections }),
      settleMs: settled.waitedMs,
    };
  };

  process.stdout.write('warm-up:');
  for (const target of targets) {
    await segment(target, options.warmupSec);
    process.stdout.write(` ${target.id}`);
  }
  process.stdout.write('\n');
  const segments = new Map<TargetId, Segment[]>(targets.map((target) => [target.id, []]));
  for (let round = 0; round < options.rounds; round++) {
    process.stdout.write(`round ${round + 1}/${options.rounds}:`);
    const order = round % 2 === 0 ? targets : [...targets].reverse();
    for (const target of order) {
      const measured = await segment(target, options.durationSec, round);
      segments.get(target.id)?.push(measured);
      const settled =
        measured.settleMs > 250 ? ` (+${(measured.settleMs / 1000).toFixed(1)} s to settle)` : '';
      process.stdout.write(` ${target.id} ${(measured.requests / measured.seconds).toFixed(0)}/s${settled}`);
    }
    process.stdout.write('\n');
  }
  return targets.map((target) => summarize(target, segments.get(target.id) ?? []));
}

async function main(): Promise<void> {
  const options = readOptions();
  const workDir = mkdtempSync(join(tmpdir(), 'fieldops-bench-'));
  const logFile = join(workDir, 'platform.log');
  const profileDir = options.profile ? mkdtempSync(join(tmpdir(), 'fieldops-bench-profile-')) : undefined;
  const cpu = cpus();
  console.log(
    `fieldops bench, ${new Date().toISOString()}, node ${process.version}, ` +
      `${cpu.length} x ${cpu[0]?.model.trim() ?? 'unknown CPU'}`,
  );
  console.log(
    `${options.connections} connections; per target ${options.warmupSec} s warm-up, then ` +
      `${options.rounds} round${options.rounds === 1 ? '' : 's'} of ${options.durationSec} s, ` +
      `targets taking turns; keyed POSTs into ${options.oneTenant ? 'one tenant per row' : 'a fresh tenant per segment'}`,
  );

  try {
    const { rows, capture } = await benchServers(options, workDir, logFile, profileDir);
    if (rows.length) report(rows);
    const engine = options.measurements.includes('engine') ? await benchEngine(options) : undefined;
    if (capture || engine) console.log(`\nmeasurements\n${measurementLines(capture, engine).join('\n')}`);
    if (options.scale) await benchScale(options, workDir, profileDir);
    if (!rows.length) return;
    const logBytes = statSync(logFile).size;
    console.log(
      `\nplatform log: ${await countLines(logFile)} lines, ${(logBytes / 1e6).toFixed(1)} MB ` +
        '(seeding, warm-up and measured pipeline requests: one line each)',
    );
    if (profileDir) {
      console.log(`\nCPU profiles of the servers process, per segment: ${profileDir}\n`);
      for (const line of summarizeProfiles(profileDir, rows)) console.log(line);
    }
  } finally {
    if (options.keep) console.log(`data and log kept in ${workDir}`);
    else rmSync(workDir, { recursive: true, force: true });
  }
}

/** One servers process per list, its tenants of every size measured side by side. */
async function benchScale(options: Options, workDir: string, profileDir: string | undefined): Promise<void> {
  const scale = options.scale as ScaleOptions;
  console.log(
    `\nscale series: ${scale.lists.join(', ')} with ${scale.sizes.map((size) => size.toLocaleString('en')).join(' / ')} ` +
      'records in the tenant (seeded by cloning one API-written record in the service store)',
  );
  const series: ScaleSeries[] = [];
  for (const list of scale.lists) {
    const logFile = join(workDir, `scale-${list}.log`);
    const env = { BENCH_SCALE_LIST: list, BENCH_SCALE_SIZES: scale.sizes.join(',') };
    const child = startServers(join(workDir, `scale-${list}`), logFile, profileDir, env);
    try {
      const ready = await waitForReady(child);
      console.log(`${list}: seeded, page of 50 = ${ready.pageBytes} bytes`);
      series.push({ list, sizes: scale.sizes, rows: await run(child, ready.targets, options) });
    } catch (error) {
      // One list that cannot be measured should not cost the others' figures.
      console.log(`${list}: not measured: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      await stopServers(child);
    }
  }
  console.log(`\n${scaleTable(series)}`);
}

function report(rows: Measurement[]): void {
  console.log(`\n${table(rows)}\n`);
  for (const line of verdicts(rows)) console.log(line);
  for (const line of warnings(rows)) console.log(`warning: ${line}`);
}

async function benchEngine(options: Options): Promise<EngineThroughput> {
  console.log(
    `\nengine: writing a ${options.enginePoints.toLocaleString('en')}-point LAS cloud, then measuring it`,
  );
  return measureEngineThroughput(options.enginePoints);
}

function measurementLines(
  capture: CaptureTiming | undefined,
  engine: EngineThroughput | undefined,
): string[] {
  const lines: string[] = [];
  if (capture) {
    const each = capture.runsMs.map((ms) => ms.toFixed(0)).join(', ');
    lines.push(
      `  capture-e2e  finalize -> quantities readable: median ${capture.medianMs.toFixed(0)} ms ` +
        `(${each} ms; ${capture.points} points, ${capture.bytes} bytes of PLY, builtin engine, mode volumes)`,
    );
  }
  if (engine) {
    const error =
      engine.net === undefined ? '' : `, net ${engine.net.toFixed(1)} m3 of ${engine.trueVolume.toFixed(1)}`;
    lines.push(
      `  engine       ${engine.pointsPerSecond.toLocaleString('en')} points/s ` +
        `(${engine.points.toLocaleString('en')} points in ${engine.seconds} s, cell ${engine.cellSizeM} m${error})`,
    );
  }
  return lines;
}

/**
 * Starts the servers process, measures its targets (and the capture-e2e row against its platform)
 * and stops it, whatever happened. Not started when neither is selected.
 */
async function benchServers(
  options: Options,
  workDir: string,
  logFile: string,
  profileDir: string | undefined,
): Promise<{ rows: Measurement[]; capture?: CaptureTiming }> {
  const timeCaptures = options.measurements.includes('capture-e2e');
  if (!options.only.length && !timeCaptures) return { rows: [] };
  const receiver = options.exportTraces ? await startOtlpReceiver() : undefined;
  const tracing: Record<string, string> = receiver ? { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } : {};
  const child = startServers(join(workDir, 'data'), logFile, profileDir, tracing);
  try {
    const ready = await waitForReady(child);
    console.log(
      `platform LOG_LEVEL=${ready.logLevel} (request log to ${options.keep ? logFile : 'a temporary file'}), ` +
        `${ready.seededLeads} leads seeded, page of 50 = ${ready.pageBytes} bytes, crm at ${ready.crmAddress}\n`,
    );
    const targets = ready.targets.filter((target) => options.only.includes(target.id));
    const rows = targets.length ? await run(child, targets, options) : [];
    if (!timeCaptures) return { rows };
    console.log(`capture-e2e: ${options.captures} captures after one warm-up`);
    const capture = await finalizeToQuantities(ready.capture.url, ready.capture.token, options.captures);
    return { rows, capture };
  } finally {
    await stopServers(child);
    if (receiver) {
      const { spans, exports } = receiver.received();
      console.log(`\ntraces exported to ${receiver.url}: ${spans} spans in ${exports} OTLP requests`);
      await receiver.close();
    }
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
