// Types of suites.mjs for the TypeScript tests.
export interface SuiteGroup {
  name: string;
  env: Record<string, string>;
  suites: string[];
  containerValues?: Record<string, unknown>;
  /** The suites `--containers` runs: all when absent, none when false. */
  containers?: false | string[];
  /** Why the others run through processes only. */
  why?: string;
  /** One file at a time (the others run two at a time); says why. */
  oneAtATime?: string;
  /** No later group runs on its cluster; says why. */
  closesCluster?: string;
}
/** The settings only the gateway acts on: a group that differs from the last only in these shares its cluster. */
export const GATEWAY_SETTINGS: readonly string[];
/** The settings whose values differ between two sets (one that only one of them has, too). */
export function differingSettings(a: Record<string, string>, b: Record<string, string>): string[];
/** Whether `next` can run on the cluster of `last` with the gateway alone restarted with its settings. */
export function sharesCluster(last: SuiteGroup | undefined, next: SuiteGroup): boolean;
/** The groups of HTTP suites `npm run test:cluster` runs, each on a cluster of its settings. */
export const GROUPS: SuiteGroup[];
/** Black-box suites with a part skipped on a cluster, and why that part needs a process handle. */
export const PARTS_IN_PROCESS_ONLY: Record<string, string>;
/** The suites of a group that run through the chart's containers. */
export function containerSuites(group: SuiteGroup): string[];
/** Suites that run only in process, and why. */
export const IN_PROCESS_ONLY: Record<string, string>;
/** The tables of docs/deploy.md "Suites through the topology". */
export function suitesTable(): string;
