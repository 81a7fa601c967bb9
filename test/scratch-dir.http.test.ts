// FIELDOPS_SCRATCH_DIR: the volume large working files go to, sized where they are made. An export
// requested over HTTP is staged there (its tables and stored files, then its archive), not under
// the data dir, and the staging is removed once the archive is stored; without the variable the
// export work stays where `npm start` has always kept it, under the data dir. (COLMAP's workspaces
// under it: services/capture/test/colmap-engine.test.ts.)
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { plyCloud, pointFrame, presign, put } from './support/capture.ts';
import { settled, type ExportBody } from './support/exports.ts';
import { eventually, startTestPlatform, type Client, type TestPlatform } from './support/harness.ts';
import { newCustomer, newProject } from './support/projects.ts';

const scratch = mkdtempSync(join(tmpdir(), 'fieldops-scratch-'));
let platform: TestPlatform;
let api: Client;

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((path) => statSync(join(dir, path)).isFile())
    .map((path) => relative(dir, join(dir, path)))
    .sort();
}

beforeAll(async () => {
  platform = await startTestPlatform({
    FIELDOPS_SCRATCH_DIR: scratch,
    FIELDOPS_EXPORT_POLL_MS: '100',
    // A pause before each phase: long enough to look at what the export staged so far.
    FIELDOPS_EXPORT_PHASE_DELAY_MS: '1500',
  });
  ({ api } = await platform.tenant('Scratch Co'));
  await api.post('/leads', { name: 'Scratch Lead', email: 'lead@scratch.test' });
  const projectId = (await newProject(api, await newCustomer(api, 'Scratch Customer'), { name: 'Yard' })).id;
  const cloud = plyCloud();
  const { uploads } = await presign(api, projectId, { frames: [pointFrame(cloud.length)] });
  expect((await put(uploads[0]!, cloud)).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await platform?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe('an export with FIELDOPS_SCRATCH_DIR set', () => {
  it('is staged under the scratch dir, never under the data dir, and its staging is removed when ready', async () => {
    const work = join(scratch, 'export-work');
    const queued = await api.post('/exports', {});
    expect(queued.status).toBe(201);
    const id = (queued.body.export as ExportBody).id;
    // Before the package phase: the tables and the stored file are staged, each in its folder.
    const staged = await eventually(async () => {
      const files = filesUnder(join(work, id));
      return files.some((file) => file.startsWith('blobs/')) ? files : undefined;
    }, 20_000);
    expect(staged.some((file) => /^tables\/crm\/.+\.ndjson$/.test(file))).toBe(true);
    expect(existsSync(join(platform.dataDir, 'export-work'))).toBe(false);

    const ready = await settled(api, id, 30_000);
    expect(ready).toMatchObject({ status: 'ready', sizeBytes: expect.any(Number) });
    // The packager removes its staging and archive right after it records the export ready.
    await eventually(async () => (filesUnder(work).length === 0 ? true : undefined), 10_000);
    expect(existsSync(join(platform.dataDir, 'export-work'))).toBe(false);
  }, 60_000);
});

describe('without FIELDOPS_SCRATCH_DIR', () => {
  it('keeps the export work under the data dir, as before', async () => {
    const plain = await startTestPlatform();
    try {
      expect(existsSync(join(plain.dataDir, 'export-work'))).toBe(true);
    } finally {
      await plain.stop();
    }
  });
});
