// The bench's table and verdicts. Everything is a ratio within one run: absolute req/s depend on
// the machine and on what else it is doing, ratios between rows measured minutes apart much less.
import type { Measurement } from './load.ts';
import type { TargetId } from './protocol.ts';

/** Without a row's own bar: the full pipeline costs at most 15% per request on top of the plain hop. */
export const DEFAULT_MIN_RATIO = 1 / 1.15;

export interface Comparison {
  row: Measurement;
  baseline: Measurement;
  /** row req/s ÷ baseline req/s. */
  ratio: number;
  /** Extra time per request on top of the baseline: baseline req/s ÷ row req/s − 1. */
  overhead: number;
  /** The ratio in each round, both rows measured minutes apart at most. */
  roundRatios: number[];
  /** Servers' CPU per request on top of the baseline's: the same cost, measured without the clock. */
  cpuOverhead: number;
  /** The same on the servers' main thread alone (undefined when not measured). */
  mainOverhead: number | undefined;
  /** Full collections of the servers' heap per 1 000 requests, the row's and the baseline's. */
  fullCollections: [number, number] | undefined;
  met: boolean;
}

export function compare(rows: Measurement[]): Comparison[] {
  const byId = new Map<TargetId, Measurement>(rows.map((row) => [row.target.id, row]));
  const comparisons: Comparison[] = [];
  for (const row of rows) {
    const baseline = row.target.baseline ? byId.get(row.target.baseline) : undefined;
    if (!baseline || row.rps === 0 || baseline.rps === 0) continue;
    const overhead = baseline.rps / row.rps - 1;
    comparisons.push({
      row,
      baseline,
      ratio: row.rps / baseline.rps,
      overhead,
      roundRatios: row.roundRps.map((rps, round) => rps / (baseline.roundRps[round] ?? Number.NaN)),
      cpuOverhead: row.cpuMicrosPerRequest / baseline.cpuMicrosPerRequest - 1,
      mainOverhead:
        row.mainMicrosPerRequest === undefined || baseline.mainMicrosPerRequest === undefined
          ? undefined
          : row.mainMicrosPerRequest / baseline.mainMicrosPerRequest - 1,
      fullCollections:
        row.fullCollectionsPerThousand === undefined || baseline.fullCollectionsPerThousand === undefined
          ? undefined
          : [row.fullCollectionsPerThousand, baseline.fullCollectionsPerThousand],
      met: row.rps / baseline.rps >= (row.target.minRatio ?? DEFAULT_MIN_RATIO),
    });
  }
  return comparisons;
}

const fixed = (value: number, digits: number): string => value.toFixed(digits);
const percent = (value: number): string => `${value >= 0 ? '+' : ''}${(value * 100).toFixed(0)}%`;

function grid(header: string[], body: string[][]): string {
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...body.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[0] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join('  ');
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...body.map(line)].join('\n');
}

export function table(rows: Measurement[]): string {
  const bare = rows.find((row) => row.target.id === 'bare');
  const comparisons = new Map(compare(rows).map((c) => [c.row.target.id, c]));
  const body = rows.map((row) => {
    const versus = comparisons.get(row.target.id);
    return [
      row.target.label,
      fixed(row.rps, 0),
      fixed(row.p50Ms, 2),
      fixed(row.p99Ms, 2),
      fixed(row.bytesPerResponse, 0),
      fixed(row.cpuMicrosPerRequest, 0),
      row.mainMicrosPerRequest === undefined ? '-' : fixed(row.mainMicrosPerRequest, 0),
      row.fullCollectionsPerThousand === undefined ? '-' : fixed(row.fullCollectionsPerThousand, 1),
      bare && bare.rps > 0 ? fixed(row.rps / bare.rps, 3) : '-',
      versus ? `${fixed(versus.ratio, 2)} (${percent(versus.overhead)})` : '',
    ];
  });
  return grid(
    [
      'target',
      'req/s',
      'p50 ms',
      'p99 ms',
      'bytes/res',
      'CPU us/req',
      'main us/req',
      'full GC/1k',
      'x bare',
      'x plain hop (cost)',
    ],
    body,
  );
}

/** One line per pipeline row: is its bar met? */
export function verdicts(rows: Measurement[]): string[] {
  return compare(rows).map((c) => {
    const verdict = c.met ? 'MET' : 'NOT MET';
    const rounds = c.roundRatios.map((ratio) => fixed(ratio, 2)).join(' ');
    return (
      `${c.row.target.label} = ${fixed(c.ratio, 2)} of ${c.baseline.target.label} ` +
      `(${percent(c.overhead)} per request; by round: ${rounds}; servers' CPU per request ` +
      `${percent(c.cpuOverhead)}` +
      (c.mainOverhead === undefined ? '' : `, on its main thread ${percent(c.mainOverhead)}`) +
      (c.fullCollections === undefined
        ? ''
        : `; full collections per 1 000 requests ${c.fullCollections.map((n) => fixed(n, 1)).join(' against ')}`) +
      '). ' +
      `Bar, at least ${fixed(c.row.target.minRatio ?? DEFAULT_MIN_RATIO, 2)} of it: ${verdict}`
    );
  });
}

/** Rows whose numbers do not mean what the table says: errors, non-2xx answers, nothing done. */
export function warnings(rows: Measurement[]): string[] {
  const found: string[] = [];
  for (const row of rows) {
    if (row.requests === 0) found.push(`${row.target.label}: no request completed`);
    if (row.non2xx > 0) found.push(`${row.target.label}: ${row.non2xx} non-2xx answers`);
    if (row.errors > 0) found.push(`${row.target.label}: ${row.errors} connection errors or timeouts`);
  }
  return found;
}
