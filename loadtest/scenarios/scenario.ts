// The shape of a load scenario: the data both drivers read (name, load, thresholds) and the two
// flows they run (a setup once, then iterations per virtual user / connection).
import type { Flow, FlowTools } from './http.ts';
import type { Thresholds } from './thresholds.ts';

export interface SetupContext {
  /** Virtual users (k6) or connections (Node runner) the scenario will run with. */
  vus: number;
  /** Differs between runs, for keys and emails that must not collide with an earlier run. */
  run: string;
}

/** What setup hands every virtual user (JSON: k6 copies it into each VU). */
export type SetupOutcome<S> = { data: S } | { skip: string };

export interface VuContext {
  /** 1-based, like k6's __VU. */
  vu: number;
  /** 0-based count of this VU's iterations, like k6's __ITER. */
  iteration: number;
  run: string;
}

export interface Scenario<S = unknown> {
  /** The k6 scenario name and tag value (letters, digits and underscores). */
  name: string;
  title: string;
  /** One paragraph for the docs and the runner's output. */
  description: string;
  /** Concurrent virtual users (k6) or connections (Node runner) unless overridden. */
  vus: number;
  thresholds: Thresholds;
  /** Runs once before the load: seeds what iterations read, or says why the scenario is skipped. */
  setup(ctx: SetupContext): Flow<SetupOutcome<S>>;
  /** One iteration of one virtual user. */
  iteration(data: S, vu: VuContext, tools: FlowTools): Flow;
}

/** Picks an element by a number that changes every iteration. */
export function pick<T>(items: readonly T[], n: number): T {
  const item = items[Math.abs(Math.floor(n)) % items.length];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

/**
 * The opId of the i-th seeded record: the same in every run, so seeding a long-lived tenant again
 * (k6 against a deployment with a fixed token) replays instead of piling up copies.
 */
export const seedKey = (kind: string, i: number): string => `load-seed-${kind}-${i}`;
