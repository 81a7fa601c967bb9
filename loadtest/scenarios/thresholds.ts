// Pass/fail bars of a scenario, as data: k6 turns them into threshold expressions on the
// scenario's own tagged metrics, the Node runner evaluates them on what it measured. One source,
// so the two cannot disagree about what "passing" means.

export interface Thresholds {
  /** Highest share of requests answered with a status the step does not expect (0 to 1). */
  maxErrorRate: number;
  /** Highest share of failed checks (0 to 1): replays not replayed, dry runs that applied... */
  maxCheckFailureRate: number;
  /** Highest 95th and 99th percentile of request duration, in milliseconds. */
  p95Ms: number;
  p99Ms: number;
}

/** What a run of one scenario measured, in the terms of its thresholds. */
export interface Observed {
  errorRate: number;
  checkFailureRate: number;
  p95Ms: number;
  p99Ms: number;
}

export interface ThresholdResult {
  /** The k6 metric the bar is set on, e.g. `http_req_duration p(95)`. */
  metric: string;
  /** The bar, e.g. `< 250 ms`. */
  limit: string;
  observed: number;
  passed: boolean;
}

/** k6 `options.thresholds` entries for a scenario (metrics are tagged with `scenario` by k6). */
export function k6Thresholds(scenario: string, t: Thresholds): Record<string, string[]> {
  return {
    [`http_req_failed{scenario:${scenario}}`]: [`rate<=${t.maxErrorRate}`],
    [`checks{scenario:${scenario}}`]: [`rate>=${1 - t.maxCheckFailureRate}`],
    [`http_req_duration{scenario:${scenario}}`]: [`p(95)<${t.p95Ms}`, `p(99)<${t.p99Ms}`],
  };
}

/** The same bars, evaluated on the Node runner's figures. */
export function evaluate(t: Thresholds, o: Observed): ThresholdResult[] {
  const percent = (rate: number) => `${(rate * 100).toFixed(2)}%`;
  return [
    {
      metric: 'http_req_failed rate',
      limit: `<= ${percent(t.maxErrorRate)}`,
      observed: o.errorRate,
      passed: o.errorRate <= t.maxErrorRate,
    },
    {
      metric: 'checks failure rate',
      limit: `<= ${percent(t.maxCheckFailureRate)}`,
      observed: o.checkFailureRate,
      passed: o.checkFailureRate <= t.maxCheckFailureRate,
    },
    {
      metric: 'http_req_duration p(95)',
      limit: `< ${t.p95Ms} ms`,
      observed: o.p95Ms,
      passed: o.p95Ms < t.p95Ms,
    },
    {
      metric: 'http_req_duration p(99)',
      limit: `< ${t.p99Ms} ms`,
      observed: o.p99Ms,
      passed: o.p99Ms < t.p99Ms,
    },
  ];
}
