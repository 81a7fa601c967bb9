// A packager killed mid-way (the platform stopped while an export is between phases) never leaves
// a half archive marked ready: after the restart the export is not ready and offers no link until
// the packager has started it again and stored a whole archive, whose checksums then verify.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checksumsVerify, downloadAndUnpack, readExport, settled } from './support/exports.ts';
import { eventually, startTestPlatform, type Body, type TestPlatform } from './support/harness.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'fieldops-export-crash-'));
let platform: TestPlatform | undefined;

function setPacing(phaseDelayMs: number): void {
  process.env['FIELDOPS_EXPORT_PHASE_DELAY_MS'] = String(phaseDelayMs);
  process.env['FIELDOPS_EXPORT_LEASE_MS'] = '500';
  process.env['FIELDOPS_EXPORT_POLL_MS'] = '100';
}

/** Archive files stored for the tenant (the blob store's files on disk). */
function storedArchives(tenantId: string): string[] {
  const dir = join(dataDir, 'blobs', 'data', 'tenants', tenantId, 'exports');
  return existsSync(dir) ? readdirSync(dir) : [];
}

afterAll(async () => {
  await platform?.stop();
  for (const name of [
    'FIELDOPS_EXPORT_PHASE_DELAY_MS',
    'FIELDOPS_EXPORT_LEASE_MS',
    'FIELDOPS_EXPORT_POLL_MS',
  ]) {
    delete process.env[name];
  }
  rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

it('resumes an export whose packager was stopped mid-way and only then marks it ready', async () => {
  setPacing(1500);
  platform = await startTestPlatform({}, dataDir);
  const { api, token, tenantId } = await platform.tenant('Crash Co');
  const lead = await api.post('/leads', { name: 'Survivor', email: 'survivor@crash.test' });
  const leadId = (lead.body.lead as Body).id as string;
  const queued = await api.post('/exports', {});
  const id = (queued.body.export as Body).id as string;
  await eventually(async () => ((await readExport(api, id)).status === 'assets' ? true : undefined), 10_000);

  await platform.stop({ keepData: true }); // the packager dies between tables and assets
  platform = undefined;
  expect(storedArchives(tenantId)).toEqual([]);

  setPacing(2000); // slow enough to read the export before the restarted packager finishes
  platform = await startTestPlatform({}, dataDir);
  const again = platform.client(token);
  const afterRestart = await readExport(again, id);
  expect(afterRestart.status).not.toBe('ready');
  expect(afterRestart.downloadUrl).toBeUndefined();

  const ready = await settled(again, id, 30_000);
  expect(ready).toMatchObject({ status: 'ready', attempts: 2 });
  expect(storedArchives(tenantId)).toEqual([`${id}.tar.gz`]);
  const archive = await downloadAndUnpack(ready.downloadUrl ?? '');
  expect(checksumsVerify(archive.dir)).toBe(true);
  expect(archive.records('tables/crm/leads.ndjson').map((doc) => doc.id)).toContain(leadId);
  // Nothing of the stopped attempt is left in the archive or beside it.
  expect(archive.files.some((file) => file.endsWith('.partial'))).toBe(false);
  // The packager clears its scratch space just after it marks the export ready.
  await eventually(async () => (readdirSync(join(dataDir, 'export-work')).length === 0 ? true : undefined));
}, 60_000);
