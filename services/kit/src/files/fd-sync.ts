// fsync under Node's permission model. Every process kind runs with `node --permission`
// (docs/security.md), and Node 24 refuses fsync and fdatasync there outright (ERR_ACCESS_DENIED:
// "fsync API is disabled when Permission Model is enabled": a descriptor cannot be checked against
// the granted paths). So a fenced process writes its embedded store and event log as
// FIELDOPS_FSYNC=never does: every acknowledged write is in the OS page cache before it is
// acknowledged and survives the process being killed; a power loss or kernel crash can take the
// last ones. Said once at open, as a warning, never silently (docs/decisions.md).
import fs from 'node:fs';
import { permissionMode } from './permission-denials.ts';

/** Whether this process may fsync: not when the permission model is enforced. */
export const fdSyncAllowed = (): boolean => permissionMode() !== 'enforced';

/** fsync(fd), or nothing where the runtime refuses it (see above). */
export function fsyncFd(fd: number): void {
  if (fdSyncAllowed()) fs.fsyncSync(fd);
}

const warned = new Set<string>();

/** The fsync policy a store can keep here: `never` when fenced, with one warning per store. */
export function effectiveFsync<P extends string>(policy: P, what: string): P | 'never' {
  if (policy === 'never' || fdSyncAllowed()) return policy;
  if (!warned.has(what)) {
    warned.add(what);
    console.warn(
      `${what}: runs with fsync ${policy} requested but never done: Node's permission model (--permission) refuses fsync; a power loss can take the last writes, a killed process cannot`,
    );
  }
  return 'never';
}
