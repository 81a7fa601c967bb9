// Every access the runtime refuses a process (node --permission, ERR_ACCESS_DENIED) becomes one
// log line naming the process kind, the permission and the resource, wherever the refusal happens:
// Node publishes each refusal on a diagnostics channel before it throws, so one that the code
// catches and handles (a probe, a fallback, a request's error answer) is not silent either. Under
// --permission-audit nothing is refused and the same line says what would have been: that is how
// the table in charts/fieldops/topology.yaml is checked against what a kind really uses
// (docs/security.md). The kinds' grants: scripts/permissions.mjs.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Logger } from '../log.ts';

/** Node's channels, one per permission scope (lib/internal/process/permission.js). */
const SCOPES = ['fs', 'child', 'worker', 'addon', 'wasi', 'inspector', 'openssl-store'] as const;

interface Denial {
  permission?: string;
  resource?: string;
}

/** Whether this process runs under the permission model, and whether it only audits. */
export function permissionMode(execArgv: readonly string[] = process.execArgv): 'enforced' | 'audit' | 'off' {
  if (execArgv.includes('--permission-audit')) return 'audit';
  return execArgv.includes('--permission') ? 'enforced' : 'off';
}

/**
 * What this process's own flags grant, in one line (`npm start` prints it): the folders it may
 * write and the powers it holds. Read from the command line, which is where the grants are.
 */
export function describeOwnGrants(execArgv: readonly string[] = process.execArgv): string {
  const writes = execArgv
    .filter((arg) => arg.startsWith('--allow-fs-write='))
    .map((arg) => arg.slice('--allow-fs-write='.length))
    .filter((path) => !path.endsWith('/*'));
  const powers = [
    ['--allow-child-process', 'start programs'],
    ['--allow-worker', 'run worker threads'],
    ['--allow-addons', 'load native addons'],
    ['--allow-wasi', 'use WASI'],
  ]
    .filter(([flag]) => execArgv.includes(flag as string))
    .map(([, power]) => power);
  return [
    `writes ${writes.length > 0 ? writes.join(', ') : 'nothing'}`,
    powers.length > 0 ? `may ${powers.join(', ')}` : 'no programs, threads, addons or WASI',
  ].join('; ');
}

/**
 * Logs every refusal as `permission denied` (or `permission would be denied` when auditing) with
 * the kind, the permission and the resource. Returns the unsubscribe; nothing when not fenced.
 * Do not ask `process.permission.has()` about a scope the process lacks: Node reports the question
 * on the same channel as a refusal.
 */
export function logPermissionDenials(logger: Logger, kind: string, mode = permissionMode()): () => void {
  if (mode === 'off') return () => {};
  const message = mode === 'audit' ? 'permission would be denied (audit)' : 'permission denied';
  const onDenial = (denial: unknown) => {
    const { permission, resource } = denial as Denial;
    logger.error({ kind, permission, resource: resource === '' ? undefined : resource }, message);
  };
  const channels = SCOPES.map((scope) => `node:permission-model:${scope}`);
  for (const channel of channels) subscribe(channel, onDenial);
  return () => {
    for (const channel of channels) unsubscribe(channel, onDenial);
  };
}
