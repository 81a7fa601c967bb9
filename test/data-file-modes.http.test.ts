// What a started platform writes to its data dir is for its own user only: files 0600 and folders
// 0700 whatever the umask (store journals hold webhook signing secrets and link-signing keys, the
// event log every record, the blob store tenants' files and its URL-signing key, the export work
// dir whole tenants, the admin-secret file the operator secret), and what an older version left
// looser is tightened when the platform opens it again.
import { chmodSync, lstatSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestPlatform, type TestPlatform } from './support/harness.ts';
import { captureProject, finalizedPointCapture } from './support/capture.ts';
import { settled } from './support/exports.ts';

// No FIELDOPS_ADMIN_SECRET, so the platform generates one and keeps it in the data dir.
const ENV = { FIELDOPS_ADMIN_SECRET: '', FIELDOPS_WEBHOOK_ALLOW_PRIVATE: '1', FIELDOPS_COLMAP_BIN: 'off' };

interface Entry {
  path: string;
  kind: 'file' | 'dir';
  mode: string;
}

function entries(root: string): Entry[] {
  const found: Entry[] = [];
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      const mode = (lstatSync(full).mode & 0o777).toString(8);
      if (entry.isDirectory()) {
        found.push({ path: relative(root, full), kind: 'dir', mode });
        visit(full);
      } else if (entry.isFile()) {
        found.push({ path: relative(root, full), kind: 'file', mode });
      }
    }
  };
  found.push({ path: '.', kind: 'dir', mode: (lstatSync(root).mode & 0o777).toString(8) });
  visit(root);
  return found;
}

const notPrivate = (root: string): Entry[] =>
  entries(root).filter((e) => e.mode !== (e.kind === 'dir' ? '700' : '600'));

let platform: TestPlatform;
let dataDir: string;
let savedUmask: number;

beforeAll(async () => {
  // With umask 0, anything created without an explicit mode would come out 0666 or 0777.
  savedUmask = process.umask(0);
  platform = await startTestPlatform(ENV);
  dataDir = platform.dataDir;
  const { api } = await platform.tenant('Modes Co');
  // A webhook (its signing secret goes into the webhooks journal), an upload (blob store), an
  // export (export work dir and another blob) and the events each of them publishes.
  expect(
    (await api.post('/webhooks', { url: 'http://127.0.0.1:9/hook', eventTypes: ['lead.created'] })).status,
  ).toBe(201);
  expect((await api.post('/leads', { name: 'Lee Modes', email: 'lee@example.com' })).status).toBe(201);
  await finalizedPointCapture(api, await captureProject(api));
  const queued = await api.post('/exports', {});
  expect(queued.status).toBe(201);
  expect((await settled(api, (queued.body.export as { id: string }).id)).status).toBe('ready');
}, 60_000);

afterAll(async () => {
  process.umask(savedUmask);
  await platform.stop({ keepData: true });
  rmSync(dataDir, { recursive: true, force: true });
});

describe('data files of a started platform', () => {
  it('are 0600, in folders 0700, even under umask 0', () => {
    const all = entries(dataDir).map((e) => e.path);
    // The writers this covers are all there.
    expect(all).toEqual(
      expect.arrayContaining([
        'admin-secret',
        join('webhooks', 'LOCK'),
        join('events', 'offsets.json'),
        join('blobs', 'signing.key'),
        'export-work',
      ]),
    );
    expect(all.some((p) => p.startsWith(join('webhooks', '')) && p.includes('journal'))).toBe(true);
    expect(all.some((p) => p.startsWith(join('events', 'topics', '')) && p.endsWith('.log'))).toBe(true);
    expect(all.some((p) => p.startsWith(join('blobs', 'data', '')))).toBe(true);
    expect(notPrivate(dataDir)).toEqual([]);
  });

  it('are tightened when the platform opens a data dir an older version left readable', async () => {
    await platform.stop({ keepData: true });
    for (const entry of entries(dataDir)) {
      chmodSync(join(dataDir, entry.path), entry.kind === 'dir' ? 0o755 : 0o644);
    }
    expect(notPrivate(dataDir).length).toBeGreaterThan(10);
    platform = await startTestPlatform(ENV, dataDir);
    expect(notPrivate(dataDir)).toEqual([]);
  }, 60_000);
});
