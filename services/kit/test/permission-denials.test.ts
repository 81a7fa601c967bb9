// Every refusal of Node's permission model becomes one log line naming the kind, the permission and
// the resource. Node publishes each refusal on node:permission-model:<scope> before it throws; here
// the same messages are published on those channels (jest itself does not run under --permission;
// test/cluster/permissions.test.ts shows the running processes refusing and logging nothing else).
import { channel } from 'node:diagnostics_channel';
import { Writable } from 'node:stream';
import { describe, expect, test } from '@jest/globals';
import { pino } from 'pino';
import type { Logger } from '../src/log.ts';
import { logPermissionDenials, permissionMode } from '../src/files/permission-denials.ts';

function recordingLogger(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ base: null, timestamp: false }, sink) as unknown as Logger, lines };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('logPermissionDenials', () => {
  test('logs each refusal with the kind, the permission and the resource, until unsubscribed', async () => {
    const { logger, lines } = recordingLogger();
    const stop = logPermissionDenials(logger, 'gateway', 'enforced');
    channel('node:permission-model:fs').publish({ permission: 'FileSystemWrite', resource: '/data/crm/x' });
    channel('node:permission-model:child').publish({ permission: 'ChildProcess', resource: 'colmap' });
    stop();
    channel('node:permission-model:fs').publish({ permission: 'FileSystemRead', resource: '/etc/passwd' });
    await settle();
    expect(lines.map(({ kind, permission, resource, msg }) => ({ kind, permission, resource, msg }))).toEqual(
      [
        { kind: 'gateway', permission: 'FileSystemWrite', resource: '/data/crm/x', msg: 'permission denied' },
        { kind: 'gateway', permission: 'ChildProcess', resource: 'colmap', msg: 'permission denied' },
      ],
    );
  });

  test('says "would be denied" when only auditing, and nothing when not fenced', async () => {
    const audit = recordingLogger();
    const off = recordingLogger();
    const stops = [
      logPermissionDenials(audit.logger, 'crm', 'audit'),
      logPermissionDenials(off.logger, 'crm', 'off'),
    ];
    channel('node:permission-model:addon').publish({ permission: 'Addon', resource: '' });
    stops.forEach((stop) => stop());
    await settle();
    expect(audit.lines.map(({ permission, resource, msg }) => ({ permission, resource, msg }))).toEqual([
      { permission: 'Addon', resource: undefined, msg: 'permission would be denied (audit)' },
    ]);
    expect(off.lines).toEqual([]);
  });

  test('reads the mode from the node flags', () => {
    expect(permissionMode(['--permission', '--allow-fs-read=/app'])).toBe('enforced');
    expect(permissionMode(['--permission-audit'])).toBe('audit');
    expect(permissionMode(['--enable-source-maps'])).toBe('off');
  });
});
