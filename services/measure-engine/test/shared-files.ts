// The project's shared data (shared/ beside the repository): real files the tests read, such as
// laz-perf's test data in data/laz-perf/ (Apache-2.0).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project's shared data folder (shared/ in the workspace): FIELDOPS_SHARED_DIR, else beside
 * this work tree, else beside the repository this one was cloned from (CI runs on a fresh clone,
 * which may live elsewhere). A missing file then fails the test, never skips it.
 */
export function sharedFile(relative: string): string {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const origin = spawnSync('git', ['-C', root, 'config', '--get', 'remote.origin.url'], { encoding: 'utf8' });
  const originPath = origin.stdout?.trim();
  const candidates = [
    process.env['FIELDOPS_SHARED_DIR'],
    join(root, '..', 'shared'),
    originPath && isAbsolute(originPath) ? join(originPath, '..', 'shared') : undefined,
  ].filter((dir): dir is string => dir !== undefined);
  const found = candidates.map((dir) => join(dir, relative)).find((file) => existsSync(file));
  if (!found) throw new Error(`${relative} is in none of the shared folders: ${candidates.join(', ')}`);
  return found;
}
