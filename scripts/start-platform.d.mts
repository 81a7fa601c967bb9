// Types of start-platform.mjs for the TypeScript tests that import it.
import type { Grants } from './permissions.d.mts';

export const ENTRY: string;
export function platformGrants(
  env?: NodeJS.ProcessEnv,
  cwd?: string,
): { grants: Grants; dataDir: string; scratchDir: string };
export function withoutNested(paths: string[]): string[];
export function platformCommand(
  env?: NodeJS.ProcessEnv,
  cwd?: string,
): { args: string[]; folders: string[]; env: NodeJS.ProcessEnv };
