// One open embedded event log per directory. A second instance would not see the first one's
// appends (each keeps its index and wakes its subscribers in memory) and two writers would
// interleave lines, so a second open fails loudly instead: share the instance.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const openHere = new Set<string>();

/** Takes the directory's LOCK file (holding our pid); returns the release. */
export function lockDirectory(dir: string): () => void {
  const key = resolve(dir);
  if (openHere.has(key)) {
    throw new Error(`the event log in ${dir} is already open in this process; share that instance`);
  }
  const path = join(dir, 'LOCK');
  if (!tryCreate(path)) {
    const holder = Number(readFileSync(path, 'utf8'));
    if (holder !== process.pid && isAlive(holder)) {
      throw new Error(`the event log in ${dir} is in use by process ${holder} (remove ${path} if it is not)`);
    }
    // Left by a process that is gone: it crashed without closing, which the log recovers from.
    writeFileSync(path, String(process.pid));
  }
  openHere.add(key);
  return () => {
    openHere.delete(key);
    rmSync(path, { force: true });
  };
}

function tryCreate(path: string): boolean {
  try {
    writeFileSync(path, String(process.pid), { flag: 'wx' });
    return true;
  } catch (err) {
    if (codeOf(err) === 'EEXIST') return false;
    throw err;
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return codeOf(err) === 'EPERM';
  }
}

// Structural rather than instanceof: errors from node:fs can come from another realm (vm, jest).
function codeOf(err: unknown): unknown {
  return typeof err === 'object' && err !== null && 'code' in err ? err.code : undefined;
}
