// What the Node runner counts while a scenario runs, and the summary it reports: the same figures
// k6 would give for the scenario's tagged metrics (http_req_failed, checks, http_req_duration).
// Latency goes into nanosecond histograms: autocannon's own has 1 ms resolution.
import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import type { Observed } from '../scenarios/thresholds.ts';

export interface StepSummary {
  step: string;
  requests: number;
  /** Answers with a status the step does not expect. */
  unexpected: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
}

export interface Summary extends Observed {
  seconds: number;
  connections: number;
  requests: number;
  /** Requests per second over the whole scenario. */
  rps: number;
  iterations: number;
  /** Answers with a status their step does not expect. */
  unexpected: number;
  /** Connection errors and timeouts (counted against the error rate, as k6 does). */
  errors: number;
  /** Answers by status class, e.g. {'2xx': 120, '4xx': 1}. */
  statusClasses: Record<string, number>;
  checks: number;
  failedChecks: Record<string, number>;
  p50Ms: number;
  maxMs: number;
  steps: StepSummary[];
}

interface StepStats {
  requests: number;
  unexpected: number;
  latency: RecordableHistogram;
}

const ms = (histogram: RecordableHistogram, percentile: number): number =>
  histogram.count ? histogram.percentile(percentile) / 1e6 : 0;

export class ScenarioStats {
  private readonly latency = createHistogram();
  private readonly steps = new Map<string, StepStats>();
  private readonly statusClasses: Record<string, number> = {};
  private readonly failedChecks: Record<string, number> = {};
  private requests = 0;
  private unexpected = 0;
  private checks = 0;
  private failed = 0;
  iterations = 0;
  errors = 0;

  private stepStats(step: string): StepStats {
    let stats = this.steps.get(step);
    if (!stats) {
      stats = { requests: 0, unexpected: 0, latency: createHistogram() };
      this.steps.set(step, stats);
    }
    return stats;
  }

  answered(step: string, status: number, expected: boolean): void {
    const stats = this.stepStats(step);
    this.requests++;
    stats.requests++;
    const statusClass = `${Math.floor(status / 100)}xx`;
    this.statusClasses[statusClass] = (this.statusClasses[statusClass] ?? 0) + 1;
    if (!expected) {
      this.unexpected++;
      stats.unexpected++;
    }
  }

  timed(step: string, milliseconds: number): void {
    const nanos = Math.max(1, Math.round(milliseconds * 1e6));
    this.latency.record(nanos);
    this.stepStats(step).latency.record(nanos);
  }

  check(name: string, ok: boolean): void {
    this.checks++;
    if (ok) return;
    this.failed++;
    this.failedChecks[name] = (this.failedChecks[name] ?? 0) + 1;
  }

  summary(seconds: number, connections: number): Summary {
    const attempts = this.requests + this.errors;
    return {
      seconds,
      connections,
      requests: this.requests,
      rps: seconds > 0 ? this.requests / seconds : 0,
      iterations: this.iterations,
      unexpected: this.unexpected,
      errors: this.errors,
      statusClasses: { ...this.statusClasses },
      checks: this.checks,
      failedChecks: { ...this.failedChecks },
      errorRate: attempts ? (this.unexpected + this.errors) / attempts : 0,
      checkFailureRate: this.checks ? this.failed / this.checks : 0,
      p50Ms: ms(this.latency, 50),
      p95Ms: ms(this.latency, 95),
      p99Ms: ms(this.latency, 99),
      maxMs: this.latency.count ? this.latency.max / 1e6 : 0,
      steps: [...this.steps].map(([step, stats]) => ({
        step,
        requests: stats.requests,
        unexpected: stats.unexpected,
        p50Ms: ms(stats.latency, 50),
        p95Ms: ms(stats.latency, 95),
        p99Ms: ms(stats.latency, 99),
      })),
    };
  }
}
