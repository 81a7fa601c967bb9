// The TenantDumpService helper every record-owning service binds: it lists the service's declared
// collections (never the idempotency records) and pages through one for the calling tenant only.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { systemContext } from '../src/context.ts';
import { createTenantDumpHandlers, type TenantDumpHandlers } from '../src/domain/tenant-dump.ts';
import { openEmbeddedStore } from '../src/store/embedded.ts';
import type { DocumentStore } from '../src/store/port.ts';
import { idempotencyCollectionSpec } from '../src/write/index.ts';

let dir: string;
let store: DocumentStore;
let dump: TenantDumpHandlers;
const as = (tenantId: string) =>
  systemContext({ id: tenantId, currency: 'EUR', defaultVertical: '' }, 'dump');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tenant-dump-'));
  store = await openEmbeddedStore({ dir, fsync: 'never' });
  const specs = [{ name: 'leads' }, { name: 'customers' }, idempotencyCollectionSpec];
  for (const spec of specs) await store.define(spec);
  for (let i = 0; i < 7; i++) {
    await store.commit('ten_a', [
      { op: 'insert', collection: 'leads', doc: { id: `lead_${i}`, tenantId: 'ten_a', version: 1, n: i } },
    ]);
  }
  await store.commit('ten_b', [
    { op: 'insert', collection: 'leads', doc: { id: 'lead_b', tenantId: 'ten_b', version: 1 } },
  ]);
  dump = createTenantDumpHandlers('crm', store, specs);
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('tenant dump', () => {
  it('lists the declared collections, sorted, without the idempotency records', async () => {
    expect(await dump.listCollections({}, as('ten_a'))).toEqual({
      service: 'crm',
      names: ['customers', 'leads'],
    });
  });

  it('pages through one collection for the calling tenant only, every document once', async () => {
    const seen: string[] = [];
    let cursor = '';
    let pages = 0;
    do {
      const page = await dump.dumpCollection({ collection: 'leads', cursor, limit: 3 }, as('ten_a'));
      seen.push(...page.documentsJson.map((json) => (JSON.parse(json) as { id: string }).id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(['lead_0', 'lead_1', 'lead_2', 'lead_3', 'lead_4', 'lead_5', 'lead_6']);
    const other = await dump.dumpCollection({ collection: 'leads', cursor: '', limit: 0 }, as('ten_b'));
    expect(other.documentsJson.map((json) => JSON.parse(json) as { id: string; tenantId: string })).toEqual([
      expect.objectContaining({ id: 'lead_b', tenantId: 'ten_b' }),
    ]);
  });

  it('refuses a collection the service does not declare (the idempotency records included)', async () => {
    for (const collection of ['idempotency', 'secrets']) {
      await expect(
        dump.dumpCollection({ collection, cursor: '', limit: 10 }, as('ten_a')),
      ).rejects.toMatchObject({
        code: 'not_found',
      });
    }
  });

  it('refuses a cursor that is not one of its own with field_invalid', async () => {
    await expect(
      dump.dumpCollection({ collection: 'leads', cursor: 'nonsense', limit: 10 }, as('ten_a')),
    ).rejects.toMatchObject({ code: 'field_invalid' });
  });
});
