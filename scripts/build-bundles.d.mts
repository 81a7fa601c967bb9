// Types of build-bundles.mjs for the TypeScript tests that import it.
export interface Bundle {
  /** Absolute path of <outdir>/<kind>.mjs. */
  file: string;
  /** What the bundle imports at run time: published packages (and their subpaths) and node builtins. */
  imports: string[];
}
/** Process kind → entry point, relative to the repository root. */
export function processKinds(): Record<string, string>;
export function buildBundles(outdir?: string): Promise<Record<string, Bundle>>;
