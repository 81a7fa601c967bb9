// Types of build-bundles.mjs for the TypeScript tests that import it.
export interface Bundle {
  /** Absolute path of <outdir>/<kind>.mjs. */
  file: string;
  /** What the bundle imports at run time: published packages (and their subpaths) and node builtins. */
  imports: string[];
}
/** Process kind → entry point, relative to the repository root. */
export function processKinds(): Record<string, string>;
/** Writes a bundle per process kind and per job. */
export function buildBundles(outdir?: string): Promise<Record<string, Bundle>>;
/** One-shot job (not a process kind: no Deployment, not in topology.yaml) → entry point. */
export const JOBS: Record<string, string>;
/** Every bundle of the image: the process kinds and the jobs. */
export function bundleEntries(): Record<string, string>;
/** Module that reads a text file beside it at start → that file and the module's export, from the root. */
export const TEXT_ASSETS: Record<string, { file: string; name: string }>;
