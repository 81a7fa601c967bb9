// `npm run bench -- --profile`: the servers process records a V8 CPU profile of every segment
// (node:inspector, only while that segment's load runs and settles), and this summarises the
// measured ones per row: where the main thread spent its samples, converted to microseconds per
// request with the row's measured CPU per request. For a pipeline row it also lists what the row
// spends beyond its plain-hop baseline, area by area: that difference is the pipeline's cost.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Profiler } from 'node:inspector';
import type { Measurement } from './load.ts';
import type { TargetId } from './protocol.ts';

/** Samples per function and per area, as a share of the row's busy (non-idle) samples. */
interface Breakdown {
  functions: Map<string, number>;
  areas: Map<string, number>;
  samples: number;
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

function breakdown(files: string[]): Breakdown {
  const result: Breakdown = { functions: new Map(), areas: new Map(), samples: 0 };
  for (const file of files) {
    const profile = JSON.parse(readFileSync(file, 'utf8')) as Profiler.Profile;
    for (const node of profile.nodes) {
      const hits = node.hitCount ?? 0;
      if (
        hits === 0 ||
        node.callFrame.functionName === '(idle)' ||
        node.callFrame.functionName === '(root)'
      ) {
        continue;
      }
      const name = frameName(node.callFrame);
      const area = areaOf(node.callFrame);
      result.functions.set(name, (result.functions.get(name) ?? 0) + hits);
      result.areas.set(area, (result.areas.get(area) ?? 0) + hits);
      result.samples += hits;
    }
  }
  return result;
}

function measuredFiles(dir: string, target: TargetId): string[] {
  return readdirSync(dir)
    .filter((name) => name.startsWith(`${target}.`) && name !== profileFile(target, WARM_UP))
    .map((name) => join(dir, name));
}

/** µs per request of each key: its share of busy samples times the row's CPU per request. */
function perRequest(counts: Map<string, number>, samples: number, row: Measurement): Map<string, number> {
  const micros = new Map<string, number>();
  for (const [key, hits] of counts) micros.set(key, (hits / samples) * row.cpuMicrosPerRequest);
  return micros;
}

const top = (micros: Map<string, number>, count: number): [string, number][] =>
  [...micros].sort((a, b) => b[1] - a[1]).slice(0, count);

const line = (micros: number, what: string): string => `    ${micros.toFixed(0).padStart(6)} us  ${what}`;

export function summarizeProfiles(dir: string, rows: Measurement[]): string[] {
  const lines: string[] = [];
  const areasOf = new Map<TargetId, Map<string, number>>();
  for (const row of rows) {
    const profile = breakdown(measuredFiles(dir, row.target.id));
    if (profile.samples === 0 || row.requests === 0) continue;
    const areas = perRequest(profile.areas, profile.samples, row);
    areasOf.set(row.target.id, areas);
    lines.push(`${row.target.label}: ${row.cpuMicrosPerRequest.toFixed(0)} us of CPU per request`);
    lines.push('  by area:');
    for (const [area, micros] of top(areas, 10)) lines.push(line(micros, area));
    lines.push('  by function (self time):');
    for (const [name, micros] of top(perRequest(profile.functions, profile.samples, row), 12)) {
      lines.push(line(micros, name));
    }
    const baseline = row.target.baseline ? areasOf.get(row.target.baseline) : undefined;
    if (baseline) {
      const extra = new Map([...areas].map(([area, micros]) => [area, micros - (baseline.get(area) ?? 0)]));
      lines.push(`  beyond ${row.target.baseline} (areas that grew most):`);
      for (const [area, micros] of top(extra, 12)) lines.push(line(micros, area));
    }
    lines.push('');
  }
  return lines;
}
