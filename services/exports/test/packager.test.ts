// The packager against real stores, a real blob store and a record-owning service over gRPC: an
// export moves to ready with the records of its tenant only; a failure stops it with the phase
// named and stores no archive; an export whose packager kept dying fails cleanly.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { connect, createServer, type Server } from 'node:net';
import { blobPrefix } from '@fieldops/kit/blobs';
import { PLATFORM_TENANT } from '@fieldops/kit/store';
import { eventually } from '@fieldops/kit/testing';
import { EXPORT_PURGES, EXPORT_QUEUE, EXPORTS } from '../src/collections.ts';
import type { QueueEntry } from '../src/exports/export-queue.ts';
import type { ExportDoc } from '../src/exports/export.model.ts';
import { ctx, openTestExports, SOURCE_COLLECTION, TENANT_A, TENANT_B, type TestExports } from './harness.ts';

let t: TestExports;

beforeEach(async () => {
  t = await openTestExports();
});
afterEach(() => t.close());

async function settle(id: string, tenantId = TENANT_A, timeoutMs = 10_000): Promise<ExportDoc> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const doc = await t.store.get<ExportDoc>(EXPORTS, tenantId, id);
    if (doc && (doc.status === 'ready' || doc.status === 'failed')) return doc;
    if (Date.now() > deadline) throw new Error(`export ${id} did not settle: ${doc?.status}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function archivesOf(tenantId: string): Promise<string[]> {
  const page = await t.blobs.list(blobPrefix(tenantId, 'exports'));
  return page.items.map((item) => item.key);
}

describe('the packager', () => {
  it('packages a queued export to ready, from records read over gRPC, and takes it off the queue', async () => {
    for (const [tenantId, id] of [
      [TENANT_A, 'w_1'],
      [TENANT_A, 'w_2'],
      [TENANT_B, 'w_other'],
    ] as const) {
      await t.sourceStore.commit(tenantId, [
        { op: 'insert', collection: SOURCE_COLLECTION, doc: { id, tenantId, version: 1, name: id } },
      ]);
    }
    await t.startPackager();
    const queued = await t.domain.exports.createExport({}, ctx());
    const ready = await settle(queued.export!.id);
    expect(ready).toMatchObject({ status: 'ready', attempts: 1 });
    expect(ready.sizeBytes).toBeGreaterThan(0);
    expect(await archivesOf(TENANT_A)).toEqual([ready.archiveKey]);
    expect(await t.store.get(EXPORT_QUEUE, PLATFORM_TENANT, ready.id)).toBeNull();

    const read = await t.blobs.get(ready.archiveKey as never);
    const chunks: Buffer[] = [];
    for await (const chunk of read!.body) chunks.push(chunk as Buffer);
    const { gunzipSync } = await import('node:zlib');
    const tarText = gunzipSync(Buffer.concat(chunks)).toString('latin1');
    expect(tarText).toContain('"id":"w_1"');
    expect(tarText).toContain('"id":"w_2"');
    expect(tarText).not.toContain('w_other');
  });

  it('deletes the archive once the export has expired, and stops offering a link', async () => {
    await t.close();
    // No retention: the export expires the moment it is ready.
    t = await openTestExports({ FIELDOPS_EXPORT_RETENTION_HOURS: '0' });
    await t.startPackager();
    const queued = await t.domain.exports.createExport({}, ctx());
    const ready = await settle(queued.export!.id);
    expect(ready.status).toBe('ready');
    // The purge deletes the archive, then its entry (so a crash in between retries the purge):
    // wait for both, as a reader between the two steps still sees the entry.
    await eventually(async () =>
      (await archivesOf(TENANT_A)).length === 0 &&
      (await t.store.get(EXPORT_PURGES, PLATFORM_TENANT, ready.id)) === null
        ? true
        : undefined,
    );
    const view = await t.domain.exports.getExport({ id: ready.id }, ctx());
    expect(view).toMatchObject({ status: 'ready', downloadUrl: '', sizeBytes: ready.sizeBytes });
  });

  it('keeps the archive until its expiry', async () => {
    await t.startPackager();
    const queued = await t.domain.exports.createExport({}, ctx());
    const ready = await settle(queued.export!.id);
    await new Promise((resolve) => setTimeout(resolve, 3 * t.settings.pollMs));
    expect(await archivesOf(TENANT_A)).toEqual([ready.archiveKey]);
    expect(await t.store.get(EXPORT_PURGES, PLATFORM_TENANT, ready.id)).toMatchObject({
      purgeAt: ready.expiresAt,
    });
  });

  it('stops a failure with an error naming the phase that failed, and stores no archive', async () => {
    await t.close();
    // No patience for a dependency that is away (the next test waits one out).
    t = await openTestExports({ FIELDOPS_EXPORT_DEPENDENCY_WAIT_MS: '0' });
    // Nothing listens on port 1: the records cannot be read, so the tables phase fails.
    await t.startPackager({ widgets: '127.0.0.1:1' });
    const queued = await t.domain.exports.createExport({}, ctx());
    const failed = await settle(queued.export!.id, TENANT_A, 30_000);
    expect(failed.status).toBe('failed');
    expect(failed.error?.phase).toBe('tables');
    expect(failed.error?.message).toMatch(/^The tables phase failed: /);
    expect(await archivesOf(TENANT_A)).toEqual([]);
    expect(await t.store.get(EXPORT_QUEUE, PLATFORM_TENANT, failed.id)).toBeNull();
    const view = await t.domain.exports.getExport({ id: failed.id }, ctx());
    expect(view).toMatchObject({ status: 'failed', downloadUrl: '', error: { phase: 'tables' } });
  }, 40_000);

  it('waits out a record service that is away, then packages the export without spending an attempt', async () => {
    await t.close();
    t = await openTestExports({ FIELDOPS_EXPORT_RETRY_MS: '100' });
    // The record service behind a relay that drops every connection until it is "back" (a
    // service restarting in a rollout), then passes them through.
    const [host, port] = t.sourceAddress.split(':') as [string, string];
    let back = false;
    const relay: Server = createServer((socket) => {
      if (!back) return socket.destroy();
      const upstream = connect(Number(port), host);
      socket.pipe(upstream).pipe(socket);
      upstream.on('error', () => socket.destroy());
      socket.on('error', () => upstream.destroy());
    });
    await new Promise<void>((listening) => relay.listen(0, '127.0.0.1', listening));
    try {
      const relayPort = (relay.address() as { port: number }).port;
      await t.startPackager({ widgets: `127.0.0.1:${relayPort}` });
      const id = (await t.domain.exports.createExport({}, ctx())).export!.id;
      await eventually(async () => {
        const entry = await t.store.get<QueueEntry>(EXPORT_QUEUE, PLATFORM_TENANT, id);
        return entry?.waitingSince ? true : undefined;
      });
      const waiting = (await t.store.get<ExportDoc>(EXPORTS, TENANT_A, id))!;
      expect(waiting.status).not.toBe('failed');
      expect(waiting.attempts).toBe(0);
      back = true;
      const ready = await settle(id, TENANT_A, 60_000);
      expect(ready).toMatchObject({ status: 'ready', attempts: 1 });
    } finally {
      relay.close();
    }
  }, 90_000);

  it('fails cleanly, naming the phase it was in, an export whose packager stopped maxAttempts times', async () => {
    const queued = await t.domain.exports.createExport({}, ctx());
    const id = queued.export!.id;
    // What three packagers killed during the assets phase leave behind.
    const doc = (await t.store.get<ExportDoc>(EXPORTS, TENANT_A, id))!;
    await t.store.commit(TENANT_A, [
      {
        op: 'replace',
        collection: EXPORTS,
        doc: { ...doc, version: doc.version + 1, status: 'assets', attempts: t.settings.maxAttempts },
        expectedVersion: doc.version,
      },
    ]);
    await t.startPackager();
    const failed = await settle(id);
    expect(failed).toMatchObject({ status: 'failed', error: { phase: 'assets' } });
    expect(failed.error?.message).toMatch(/stopped 3 times/);
    expect(await archivesOf(TENANT_A)).toEqual([]);
  });

  it('offers a download link only once ready, and none for another tenant', async () => {
    await t.startPackager();
    const queued = await t.domain.exports.createExport({}, ctx());
    expect(queued.export).toMatchObject({ status: 'queued', downloadUrl: '' });
    await settle(queued.export!.id);
    const view = await t.domain.exports.getExport({ id: queued.export!.id }, ctx());
    expect(view.downloadUrl).toMatch(/^http:\/\/127\.0\.0\.1:1\/blobs\/tenants\/ten_alpha\/exports\//);
    const foreign = t.domain.exports.getExport({ id: queued.export!.id }, ctx({ tenantId: TENANT_B }));
    await expect(foreign).rejects.toMatchObject({ code: 'not_found' });
  });
});
