// The scale series of `npm run bench`: for each list, the same page read in tenants of growing
// size, measured side by side (rounds alternate between the sizes), and reported as the cost of a
// request relative to the smallest tenant, two ways: by the clock, rps(smallest) / rps(size), and by
// the servers' CPU per request, cpu(size) / cpu(smallest). 1.00 means a page costs the same whatever
// the tenant holds; the goal is at most 1.2 at 100,000. On a machine other work is loading, the
// clock ratio swings from segment to segment; the CPU ratio is charged to the servers process
// alone and is the steadier of the two, so the verdict takes it.
import type { Measurement } from './load.ts';
import { SCALE_LISTS } from './scale.ts';

export interface ScaleOptions {
  lists: string[];
  sizes: number[];
}

export interface ScaleSeries {
  list: string;
  sizes: number[];
  /** One row per size, in size order. */
  rows: Measurement[];
}

/** The goal at the largest size. */
export const MAX_SCALE_COST = 1.2;

export function scaleOptions(lists: string | undefined, sizes: string | undefined): ScaleOptions {
  const known = SCALE_LISTS.map((list) => list.id);
  const chosen = (lists ?? known.join(',')).split(',').map((id) => id.trim());
  const unknown = chosen.filter((id) => !known.includes(id));
  if (unknown.length)
    throw new Error(`--scale-lists: unknown list ${unknown.join(', ')} (${known.join(', ')})`);
  const counts = (sizes ?? '1000,10000,100000').split(',').map(Number);
  if (counts.some((count) => !Number.isInteger(count) || count < 1)) {
    throw new Error('--scale-sizes takes positive integers, smallest first');
  }
  return { lists: chosen, sizes: counts };
}

const fixed = (value: number, digits: number): string => value.toFixed(digits);

export function scaleTable(series: ScaleSeries[]): string {
  const header = [
    'list',
    'records',
    'req/s',
    'p50 ms',
    'p99 ms',
    'CPU us/req',
    'CPU x smallest',
    'clock x smallest',
    'by round',
  ];
  const body: string[][] = [];
  const verdicts: string[] = [];
  for (const { list, sizes, rows } of series) {
    const first = rows[0];
    rows.forEach((row, i) => {
      const cost = first && row.rps > 0 ? first.rps / row.rps : Number.NaN;
      const cpu = first ? row.cpuMicrosPerRequest / first.cpuMicrosPerRequest : Number.NaN;
      const rounds = row.roundRps.map((rps, round) => fixed((first?.roundRps[round] ?? Number.NaN) / rps, 2));
      body.push([
        list,
        (sizes[i] ?? 0).toLocaleString('en'),
        fixed(row.rps, 0),
        fixed(row.p50Ms, 2),
        fixed(row.p99Ms, 2),
        fixed(row.cpuMicrosPerRequest, 0),
        fixed(cpu, 2),
        fixed(cost, 2),
        rounds.join(' '),
      ]);
    });
    const last = rows[rows.length - 1];
    if (first && last && last.rps > 0) {
      const cpu = last.cpuMicrosPerRequest / first.cpuMicrosPerRequest;
      const verdict = cpu <= MAX_SCALE_COST ? 'MET' : 'NOT MET';
      verdicts.push(
        `${list}: a page at ${(sizes[sizes.length - 1] ?? 0).toLocaleString('en')} records costs ` +
          `${fixed(cpu, 2)} x the CPU of the page at ${(sizes[0] ?? 0).toLocaleString('en')} ` +
          `(${fixed(first.rps / last.rps, 2)} x by the clock; goal <= ${MAX_SCALE_COST}): ${verdict}`,
      );
    }
    for (const row of rows) {
      if (row.non2xx > 0 || row.errors > 0) {
        verdicts.push(`warning: ${row.target.label}: ${row.non2xx} non-2xx, ${row.errors} errors`);
      }
    }
  }
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...body.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column <= 0 ? cell.padEnd(widths[0] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join('  ');
  return [
    line(header),
    widths.map((width) => '-'.repeat(width)).join('  '),
    ...body.map(line),
    '',
    ...verdicts,
  ].join('\n');
}
