// Types of buildah.mjs: the child processes the image scripts run.
/** Resolves with stdout (trimmed), or '' with `inherit`; rejects with the command and its stderr's end. */
export function run(
  command: string,
  args: string[],
  options?: { inherit?: boolean; cwd?: string },
): Promise<string>;
export function buildah(args: string[], options?: { inherit?: boolean; cwd?: string }): Promise<string>;
/** The image's full id, or undefined when buildah's storage has no such reference. */
export function imageId(ref: string): Promise<string | undefined>;
