// Tenant exports over HTTP (ENDPOINTS rows 42–44): queue, poll to ready, download through the
// short-lived link, unpack with the system's tar and find every record this test created, in
// every service, plus the stored file; checksums verified with sha256sum.
import { createHash } from 'node:crypto';
import {
  checksumsVerify,
  downloadAndUnpack,
  readExport,
  settled,
  type ExportBody,
} from './support/exports.ts';
import { plyCloud, pointFrame, presign, put } from './support/capture.ts';
import { startTestPlatform, type Body, type Client, type TestPlatform } from './support/harness.ts';
import { newCustomer, newProject } from './support/projects.ts';

const COMPUTE_PER_HOUR = 10;
let platform: TestPlatform;
let api: Client;
let tenantId: string;
const created: {
  leadId: string;
  customerId: string;
  projectId: string;
  recordId: string;
  sessionId: string;
} = {
  sessionId: '',
  leadId: '',
  customerId: '',
  projectId: '',
  recordId: '',
};
const uploaded = plyCloud();
let otherTenantLeadId: string;

beforeAll(async () => {
  platform = await startTestPlatform({
    FIELDOPS_BUDGET_COMPUTE: String(COMPUTE_PER_HOUR),
    FIELDOPS_EXPORT_POLL_MS: '100',
  });
  ({ api, tenantId } = await platform.tenant('Export Co'));
  const lead = await api.post('/leads', { name: 'Export Lead', email: 'lead@export.test' });
  created.leadId = (lead.body.lead as Body).id as string;
  created.customerId = await newCustomer(api, 'Export Customer');
  created.projectId = (await newProject(api, created.customerId, { name: 'Export Site' })).id;
  const record = await api.post(`/projects/${created.projectId}/records`, {
    kind: 'punch',
    title: 'Fix the gate',
  });
  created.recordId = (record.body.record as Body).id as string;
  const { session, uploads } = await presign(api, created.projectId, {
    frames: [pointFrame(uploaded.length)],
  });
  created.sessionId = session.id;
  expect((await put(uploads[0]!, uploaded)).status).toBe(200);

  const other = await platform.tenant('Someone Else');
  const otherLead = await other.api.post('/leads', { name: 'Not Yours', email: 'other@export.test' });
  otherTenantLeadId = (otherLead.body.lead as Body).id as string;
}, 60_000);
afterAll(async () => {
  await platform.stop();
});

const exportOf = (reply: { body: Body }) => reply.body.export as ExportBody;

describe('POST /exports, then GET /exports/:id until ready', () => {
  let ready: ExportBody;

  beforeAll(async () => {
    const queued = await api.post('/exports', {});
    expect(queued.status).toBe(201);
    expect(exportOf(queued)).toMatchObject({ status: 'queued', attempts: 0 });
    expect(exportOf(queued).downloadUrl).toBeUndefined();
    ready = await settled(api, exportOf(queued).id);
  }, 30_000);

  it('reaches ready with a size, a checksum, an expiry and a short-lived link', () => {
    expect(ready.status).toBe('ready');
    expect(ready.sizeBytes).toBeGreaterThan(0);
    expect(ready.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(Date.parse(ready.expiresAt ?? '')).toBeGreaterThan(Date.now() + 24 * 3_600_000);
    const linkExpiry = Date.parse(ready.downloadUrlExpiresAt ?? '');
    expect(linkExpiry).toBeGreaterThan(Date.now());
    expect(linkExpiry).toBeLessThanOrEqual(Date.now() + 3_600_000);
  });

  it('downloads an archive whose size and SHA-256 are the ones stated, and whose SHA256SUMS all verify', async () => {
    const archive = await downloadAndUnpack(ready.downloadUrl ?? '');
    expect(archive.archive.length).toBe(ready.sizeBytes);
    expect(createHash('sha256').update(archive.archive).digest('hex')).toBe(ready.sha256);
    expect(archive.files).toEqual(expect.arrayContaining(['manifest.json', 'SHA256SUMS']));
    expect(checksumsVerify(archive.dir)).toBe(true);
    const listed = archive
      .text('SHA256SUMS')
      .trim()
      .split('\n')
      .map((line) => line.split('  ')[1]);
    // Every file in the archive is covered by a checksum (SHA256SUMS itself aside).
    expect(listed.sort()).toEqual(archive.files.filter((f) => f !== 'SHA256SUMS').sort());
  });

  it('holds every record created in the test, from every service, and only this tenant’s', async () => {
    const archive = await downloadAndUnpack(ready.downloadUrl ?? '');
    const ids = (path: string) => archive.records(path).map((doc) => doc.id);
    const manifest = JSON.parse(archive.text('manifest.json')) as {
      tenantId: string;
      tables: { service: string; collection: string; path: string; records: number }[];
    };
    expect(manifest.tenantId).toBe(tenantId);
    const table = (service: string, collection: string) => {
      const entry = manifest.tables.find((t) => t.service === service && t.collection === collection);
      if (!entry) throw new Error(`no ${service}/${collection} in the manifest`);
      expect(archive.records(entry.path)).toHaveLength(entry.records);
      return entry.path;
    };
    expect(ids(table('crm', 'leads'))).toContain(created.leadId);
    expect(ids(table('crm', 'leads'))).not.toContain(otherTenantLeadId);
    expect(ids(table('crm', 'customers'))).toContain(created.customerId);
    expect(ids(table('projects', 'projects'))).toContain(created.projectId);
    const everyRecord = manifest.tables
      .filter((t) => t.service === 'projects')
      .flatMap((t) => archive.records(t.path));
    expect(everyRecord.map((doc) => doc.id)).toContain(created.recordId);
    const captureDocs = manifest.tables
      .filter((t) => t.service === 'capture')
      .flatMap((t) => archive.records(t.path));
    expect(captureDocs.map((doc) => doc.id)).toContain(created.sessionId);
    const everyDoc = manifest.tables.flatMap((t) => archive.records(t.path));
    expect(new Set(everyDoc.map((doc) => doc.tenantId))).toEqual(new Set([tenantId]));
  });

  it('holds the stored files byte for byte (the uploaded capture frame)', async () => {
    const archive = await downloadAndUnpack(ready.downloadUrl ?? '');
    const blobs = archive.files.filter((f) => f.startsWith('blobs/'));
    expect(blobs.length).toBeGreaterThan(0);
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const contents = blobs.map((f) => readFileSync(join(archive.dir, f)));
    expect(contents.some((bytes) => bytes.equals(uploaded))).toBe(true);
  });

  it('refuses a tampered or expired link: the link is signed', async () => {
    // The platform's own signed link (embedded blobs) or a presigned S3 URL (a bucket): either way a
    // changed expiry no longer matches the signature.
    const url = ready.downloadUrl ?? '';
    expect(url).toMatch(/X-(Fo|Amz)-Expires=\d+/);
    const tampered = url
      .replace(/X-Fo-Expires=\d+/, 'X-Fo-Expires=9999999999')
      .replace(/X-Amz-Expires=\d+/, 'X-Amz-Expires=604799');
    expect(tampered).not.toBe(url);
    expect((await fetch(tampered)).status).toBe(403);
  });
});

describe('POST /exports keys, budget and refusals', () => {
  it('replays with the same opId (200, replayed, same export) and queues a second without a key', async () => {
    const first = await api.post('/exports', { opId: 'export-once' });
    const again = await api.post('/exports', { opId: 'export-once' });
    expect(first.status).toBe(201);
    expect([again.status, again.body.replayed, exportOf(again).id]).toEqual([200, true, exportOf(first).id]);
    const headerKey = await api.post('/exports', undefined, { 'idempotency-key': 'export-once' });
    expect(exportOf(headerKey).id).toBe(exportOf(first).id);

    const a = await api.post('/exports', {});
    const b = await api.post('/exports', {});
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(exportOf(a).id).not.toBe(exportOf(b).id);
  });

  it('lists the tenant’s exports newest first, each with its status', async () => {
    const newest = exportOf(await api.post('/exports', {}));
    const list = await api.get('/exports?limit=100');
    expect(list.status).toBe(200);
    const items = list.body.items as ExportBody[];
    expect(items[0]?.id).toBe(newest.id);
    const times = items.map((item) => item.createdAt as string);
    expect([...times].sort().reverse()).toEqual(times);
    const page = await api.get('/exports?limit=1');
    expect((page.body.items as unknown[]).length).toBe(1);
    expect(page.body.nextCursor).toEqual(expect.any(String));
  });

  it('spends one compute run per export and answers 429 naming compute once spent', async () => {
    const { api: fresh } = await platform.token(tenantId, { role: 'Manager' });
    for (let i = 0; i < COMPUTE_PER_HOUR; i++) expect((await fresh.post('/exports', {})).status).toBe(201);
    const spent = await fresh.post('/exports', {});
    expect(spent.status).toBe(429);
    expect(spent.body).toMatchObject({ code: 'rate_limited', budget: 'compute' });
  });

  it('refuses unknown body fields and broken JSON, rehearses a dry run, and queues nothing', async () => {
    const before = ((await api.get('/exports?limit=100')).body.items as unknown[]).length;
    const refused = await api.post('/exports', { format: 'zip' });
    expect([refused.status, refused.body.code]).toEqual([400, 'unknown_field']);
    // The dry run says what would be queued (issue 36: the pipeline rehearses a keyed export to
    // know a replay costs no compute run, so the header is honoured rather than refused).
    const rehearsed = await api.post('/exports', {}, { 'x-service-dry-run': '1' });
    expect(rehearsed.status).toBe(200);
    expect(rehearsed.body).toMatchObject({ dryRun: true, applied: false });
    const notJson = await api.request('POST', '/exports', {
      body: '{"opId":',
      headers: { 'content-type': 'application/json' },
    });
    expect([notJson.status, notJson.body.code]).toEqual([400, 'invalid_json']);
    expect(((await api.get('/exports?limit=100')).body.items as unknown[]).length).toBe(before);
  });

  it('answers 404 not_found for an unknown export and for another tenant’s', async () => {
    expect((await api.get('/exports/exp_missing')).status).toBe(404);
    const mine = exportOf(await api.post('/exports', {}));
    const other = await platform.tenant('Prying Co');
    const foreign = await other.api.get(`/exports/${mine.id}`);
    expect([foreign.status, foreign.body.code]).toEqual([404, 'not_found']);
  });

  it('is a settings operation: a Staff token is refused with 403 naming the scope', async () => {
    const { api: staff } = await platform.token(tenantId, { role: 'Staff' });
    const refused = await staff.post('/exports', {});
    expect(refused.status).toBe(403);
    expect(refused.body.required).toEqual({ action: 'create', kind: 'settings' });
    expect((await staff.get('/exports')).status).toBe(403);
  });

  it('a read shows the same export the list shows', async () => {
    const list = (await api.get('/exports?limit=1')).body.items as ExportBody[];
    const one = await readExport(api, list[0]!.id);
    expect(one.id).toBe(list[0]!.id);
  });
});
