// One scenario through the Node runner: its setup (unmeasured, with fetch), then its connections
// in parallel for the given time or number of iterations, then its thresholds evaluated on what
// was measured.
import { runId } from '../scenarios/http.ts';
import type { Scenario } from '../scenarios/scenario.ts';
import { evaluate, type ThresholdResult } from '../scenarios/thresholds.ts';
import { Connection, driveConnection, IterationBudget } from './connection.ts';
import { runFlow, type Target } from './fetch-flow.ts';
import { ScenarioStats, type Summary } from './measure.ts';

export type ScenarioResult =
  | { name: string; title: string; status: 'skipped'; reason: string }
  | { name: string; title: string; status: 'failed'; reason: string }
  | {
      name: string;
      title: string;
      status: 'ran';
      passed: boolean;
      summary: Summary;
      thresholds: ThresholdResult[];
    };

export interface RunOptions {
  /** Seconds of load; with `iterations`, the most the scenario may take (k6's maxDuration). */
  seconds: number;
  /** Iterations to complete, shared by the connections (k6's shared-iterations); none: a timed run. */
  iterations?: number;
  /** Overrides every scenario's own number of connections (its k6 VUs). */
  connections?: number;
}

export async function runScenario(
  scenario: Scenario,
  target: Target,
  options: RunOptions,
): Promise<ScenarioResult> {
  const { name, title } = scenario;
  // No more connections than iterations: each starts by claiming one.
  const connections = Math.min(options.connections ?? scenario.vus, options.iterations ?? Infinity);
  const run = runId();
  let outcome;
  try {
    outcome = await runFlow(scenario.setup({ vus: connections, run }), target);
  } catch (err) {
    return {
      name,
      title,
      status: 'failed',
      reason: `setup: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
  if ('skip' in outcome) return { name, title, status: 'skipped', reason: outcome.skip };

  const stats = new ScenarioStats();
  const budget = new IterationBudget(options.iterations);
  const started = process.hrtime.bigint();
  const results = await Promise.all(
    Array.from({ length: connections }, (_, i) =>
      driveConnection(
        new Connection(scenario, outcome.data, { vu: i + 1, run }, target, stats, budget),
        target.url,
        options.seconds,
      ),
    ),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  stats.errors = results.reduce((sum, result) => sum + result.errors, 0);
  const summary = stats.summary(seconds, connections);
  const thresholds = evaluate(scenario.thresholds, summary);
  if (summary.requests === 0) {
    thresholds.push({ metric: 'http_reqs', limit: '> 0', observed: 0, passed: false });
  }
  return { name, title, status: 'ran', passed: thresholds.every((t) => t.passed), summary, thresholds };
}
