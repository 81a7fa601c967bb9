// `npm run bench -- --profile`: the servers process records a V8 CPU profile of every segment
// (node:inspector, only while that segment's load runs and settles), and this summarises the
// measured ones per row: where the main thread spent its time, in microseconds per request (the
// samples' own time, divided by the row's requests). For a pipeline row it also lists what the row
// spends beyond its plain-hop baseline, area by area, both ways: what grew is the pipeline's own
// work, what shrank is work the plain hop does and the pipeline does not.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Profiler } from 'node:inspector';
import type { Measurement } from './load.ts';
import type { TargetId } from './protocol.ts';

/** Main-thread time per function and per area, in µs, over the row's measured segments. */
interface Breakdown {
  functions: Map<string, number>;
  areas: Map<string, number>;
  busyMicros: number;
}

export const profileFile = (target: TargetId, label: string): string => `${target}.${label}.cpuprofile`;

const WARM_UP = 'warmup';
export const segmentLabel = (round: number | undefined): string =>
  round === undefined ? WARM_UP : `round-${round + 1}`;

/** Which part of the code a frame belongs to: a package, a folder of ours, or the runtime. */
function areaOf(frame: Profiler.ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg?.[1]) return pkg[1];
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0] ?? ''}`;
  const ours = /\/((?:gateway|services|proto|scripts)\/(?:[^/]+\/){1,3})[^/]+$/.exec(url);
  if (ours?.[1]) return ours[1].replace(/\/$/, '');
  return functionName.startsWith('(') ? functionName : `native ${functionName || '(anonymous)'}`;
}

function frameName(frame: Profiler.ProfileNode['callFrame']): string {
  const file = frame.url
    .replace(/^.*node_modules\//, '')
    .replace(/^file:\/\/.*?\/(gateway|services|proto|scripts)\//, '$1/');
  const name = frame.functionName || '(anonymous)';
  return file ? `${name} ${file}` : name;
}

/**
 * The µs each node was on the CPU: a sample's time is the delta to the next one. Counted from the
 * samples' own time rather than as shares of the row's CPU per request, so that work both rows do
 * comes out the same in both, whatever each row spends off the main thread (GC helpers, I/O).
 */
function timePerNode(profile: Profiler.Profile): Map<number, number> {
  const time = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (const [i, id] of samples.entries()) {
    const micros = deltas[i + 1] ?? 0;
    time.set(id, (time.get(id) ?? 0) + micros);
  }
  return time;
}

const IDLE = new Set(['(idle)', '(root)']);

function breakdown(files: string[]): Breakdown {
  const result: Breakdown = { functions: new Map(), areas: new Map(), busyMicros: 0 };
  for (const file of files) {
    const profile = JSON.parse(readFileSync(file, 'utf8')) as Profiler.Profile;
    const time = timePerNode(profile);
    for (const node of profile.nodes) {
      const micros = time.get(node.id) ?? 0;
      if (micros === 0 || IDLE.has(node.callFrame.functionName)) continue;
      const name = frameName(node.callFrame);
      const area = areaOf(node.callFrame);
      result.functions.set(name, (result.functions.get(name) ?? 0) + micros);
      result.areas.set(area, (result.areas.get(area) ?? 0) + micros);
      result.busyMicros += micros;
    }
  }
  return result;
}

function measuredFiles(dir: string, target: TargetId): string[] {
  return readdirSync(dir)
    .filter((name) => name.startsWith(`${target}.`) && name !== profileFile(target, WARM_UP))
    .map((name) => join(dir, name));
}

/** µs per request of each key: its main-thread time over the row's measured requests. */
function perRequest(micros: Map<string, number>, requests: number): Map<string, number> {
  return new Map([...micros].map(([key, total]) => [key, total / requests]));
}

const top = (micros: Map<string, number>, count: number): [string, number][] =>
  [...micros].sort((a, b) => b[1] - a[1]).slice(0, count);

const line = (micros: number, what: string): string => `    ${micros.toFixed(0).padStart(6)} us  ${what}`;

const sum = (micros: Iterable<number>): number => [...micros].reduce((a, b) => a + b, 0);

/** The areas a pipeline row spends more on than its plain hop, and those it spends less on. */
function beyondBaseline(baselineId: TargetId, areas: Map<string, number>, baseline: Map<string, number>) {
  const keys = new Set([...areas.keys(), ...baseline.keys()]);
  const delta = new Map([...keys].map((key) => [key, (areas.get(key) ?? 0) - (baseline.get(key) ?? 0)]));
  const grew = new Map([...delta].filter(([, micros]) => micros > 0));
  const shrank = new Map(
    [...delta].filter(([, micros]) => micros < 0).map(([key, micros]) => [key, -micros]),
  );
  return [
    `  beyond ${baselineId}: +${sum(grew.values()).toFixed(0)} us in the areas that grew, ` +
      `-${sum(shrank.values()).toFixed(0)} us in those that shrank`,
    '  grew most:',
    ...top(grew, 12).map(([area, micros]) => line(micros, area)),
    '  shrank most (work the plain hop does and this row does not):',
    ...top(shrank, 6).map(([area, micros]) => line(micros, area)),
  ];
}

export function summarizeProfiles(dir: string, rows: Measurement[]): string[] {
  const lines: string[] = [];
  const areasOf = new Map<TargetId, Map<string, number>>();
  for (const row of rows) {
    const profile = breakdown(measuredFiles(dir, row.target.id));
    if (profile.busyMicros === 0 || row.requests === 0) continue;
    const areas = perRequest(profile.areas, row.requests);
    areasOf.set(row.target.id, areas);
    lines.push(
      `${row.target.label}: ${(profile.busyMicros / row.requests).toFixed(0)} us of main-thread time ` +
        `per request (${row.cpuMicrosPerRequest.toFixed(0)} us of CPU in all threads)`,
    );
    lines.push('  by area:');
    for (const [area, micros] of top(areas, 10)) lines.push(line(micros, area));
    lines.push('  by function (self time):');
    for (const [name, micros] of top(perRequest(profile.functions, row.requests), 12)) {
      lines.push(line(micros, name));
    }
    const baselineId = row.target.baseline;
    const baseline = baselineId ? areasOf.get(baselineId) : undefined;
    if (baselineId && baseline) lines.push(...beyondBaseline(baselineId, areas, baseline));
    lines.push('');
  }
  return lines;
}
