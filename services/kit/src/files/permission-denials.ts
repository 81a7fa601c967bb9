// Every access the runtime refuses a process (node --permission, ERR_ACCESS_DENIED) becomes one
// log line naming the process kind, the permission and the resource, wherever the refusal happens:
// Node publishes each refusal on a diagnostics channel before it throws, so one that the code
// catches and handles (a probe, a fallback, a request's error answer) is not silent either. Under
// --permission-audit nothing is refused and the same line says what would have been: that is how
// the table in charts/fieldops/topology.yaml is checked against what a kind really uses
// (docs/security.md). The kinds' grants: scripts/permissions.mjs.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Logger } from '../log.js';

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
