// The runner's tables: one row per scenario, then each scenario's thresholds and steps.
import type { ScenarioResult } from './run-scenario.ts';

/** A plain-text table with right-aligned numbers (as k6's and the bench's summaries). */
export function grid(header: string[], rows: string[][]): string {
  const widths = header.map((title, i) =>
    Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const numeric = (text: string) => /^[-+]?[\d.,]+( ?%| ms)?$/.test(text);
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (numeric(cell) ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const fixed = (value: number, digits: number) => value.toFixed(digits);
const percent = (rate: number) => `${(rate * 100).toFixed(2)}%`;

export function scenarioTable(results: ScenarioResult[]): string {
  const rows = results.map((result) => {
    if (result.status !== 'ran')
      return [result.name, result.status.toUpperCase(), '', '', '', '', '', '', '', '', ''];
    const s = result.summary;
    return [
      result.name,
      result.passed ? 'PASS' : 'FAIL',
      String(s.connections),
      String(s.iterations),
      String(s.requests),
      fixed(s.rps, 0),
      fixed(s.p50Ms, 2),
      fixed(s.p95Ms, 2),
      fixed(s.p99Ms, 2),
      percent(s.errorRate),
      percent(s.checkFailureRate),
    ];
  });
  return grid(
    [
      'scenario',
      'verdict',
      'conns',
      'iterations',
      'requests',
      'req/s',
      'p50 ms',
      'p95 ms',
      'p99 ms',
      'errors',
      'checks failed',
    ],
    rows,
  );
}

export function thresholdTable(results: ScenarioResult[]): string {
  const rows: string[][] = [];
  for (const result of results) {
    if (result.status !== 'ran') continue;
    for (const t of result.thresholds) {
      const observed = t.metric.includes('rate') ? percent(t.observed) : `${fixed(t.observed, 2)} ms`;
      rows.push([result.name, t.metric, t.limit, observed, t.passed ? 'pass' : 'FAIL']);
    }
  }
  return grid(['scenario', 'threshold', 'limit', 'observed', ''], rows);
}

export function stepTable(results: ScenarioResult[]): string {
  const rows: string[][] = [];
  for (const result of results) {
    if (result.status !== 'ran') continue;
    for (const step of result.summary.steps) {
      rows.push([
        result.name,
        step.step,
        String(step.requests),
        String(step.unexpected),
        fixed(step.p50Ms, 2),
        fixed(step.p95Ms, 2),
        fixed(step.p99Ms, 2),
      ]);
    }
  }
  return grid(['scenario', 'step', 'requests', 'unexpected', 'p50 ms', 'p95 ms', 'p99 ms'], rows);
}

/** Skip and failure reasons, failed checks and non-2xx answers: what the tables cannot say. */
export function notes(results: ScenarioResult[]): string[] {
  const lines: string[] = [];
  for (const result of results) {
    if (result.status !== 'ran') {
      lines.push(`${result.name}: ${result.status}: ${result.reason}`);
      continue;
    }
    for (const [name, count] of Object.entries(result.summary.failedChecks)) {
      lines.push(`${result.name}: check "${name}" failed ${count} times`);
    }
    if (result.summary.unexpected) {
      const classes = JSON.stringify(result.summary.statusClasses);
      lines.push(
        `${result.name}: ${result.summary.unexpected} answers its steps did not expect (all: ${classes})`,
      );
    }
    if (result.summary.errors)
      lines.push(`${result.name}: ${result.summary.errors} connection errors or timeouts`);
  }
  return lines;
}
