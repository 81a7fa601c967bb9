// Types of workspace-manifests.mjs for the TypeScript tests that import it.
/** package.json, package-lock.json and each workspace's package.json, relative to the repository root. */
export function workspaceManifests(repo?: string): string[];
/** Copies those files under outdir, keeping their paths; returns them. */
export function copyManifests(outdir: string, repo?: string): string[];
