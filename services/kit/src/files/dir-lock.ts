// One process per data directory. The embedded engines (document store, event log) keep their
// state in memory and append to files: a second process on the same directory would not see the
// first one's writes and would interleave lines with it, so it must be refused, loudly.
//
// The lock is the operating system's, not a pid in a file: an exclusive open-file-description lock
// (fcntl F_OFD_SETLK on Linux, flock on macOS, through fs-native-extensions) on <dir>/LOCK, held
// by an open descriptor for as long as the engine is open. The kernel drops it the moment the
// holder's descriptors close, which includes any death: SIGKILL, a crash, a zombie not yet reaped.
// So a restart right after a crash is never refused and a reused pid proves nothing either way,
// while a second live process is always refused. The file itself stays (removing it on release
// would let two processes lock two different inodes of the same name); its content, the holder's
// pid, is only for the message.
//
// The addon is loaded on the first lock, not on import: every process kind imports this module,
// but only those whose store is embedded lock a folder, and only they are granted native addons
// (node --permission, charts/fieldops/topology.yaml).
import { closeSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import type * as NativeLocksModule from 'fs-native-extensions';
import { PRIVATE_FILE_MODE, tightenOpenFile } from './private-files.ts';

type NativeLocks = typeof NativeLocksModule;

let nativeLocks: NativeLocks | undefined;
const locks = (): NativeLocks =>
  (nativeLocks ??= createRequire(import.meta.url)('fs-native-extensions') as NativeLocks);

const openHere = new Set<string>();

export const LOCK_FILE = 'LOCK';

/** Takes `<dir>/LOCK` for this process; returns the release. `what` names the engine in messages. */
export function lockDirectory(dir: string, what: string): () => void {
  const key = resolve(dir);
  if (openHere.has(key)) {
    throw new Error(`the ${what} in ${dir} is already open in this process; share that instance`);
  }
  const path = join(dir, LOCK_FILE);
  const fd = openSync(path, 'a+', PRIVATE_FILE_MODE);
  let granted: boolean;
  try {
    granted = locks().tryLock(fd);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  if (!granted) {
    closeSync(fd);
    throw new Error(
      `the ${what} in ${dir} is in use by another running process${holderOf(path)}; stop it first, or give this one its own data directory`,
    );
  }
  tightenOpenFile(fd);
  ftruncateSync(fd, 0);
  writeSync(fd, String(process.pid));
  openHere.add(key);
  return () => {
    openHere.delete(key);
    locks().unlock(fd);
    closeSync(fd);
  };
}

function holderOf(path: string): string {
  try {
    const pid = readFileSync(path, 'utf8').trim();
    return /^\d+$/.test(pid) ? ` (pid ${pid})` : '';
  } catch {
    return '';
  }
}
