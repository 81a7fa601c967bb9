import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemContext, type RequestContext } from '@fieldops/kit';
import { domainEvent, type DomainEvent } from '@fieldops/kit/events';
import { openEmbeddedStore, type DocumentStore } from '@fieldops/kit/store';
import { pagesBothWays } from '@fieldops/kit/testing';
import { audit } from '@fieldops/proto';
import { genesisHash } from '../src/chain.ts';
import { createAuditHandlers, type AuditHandlers } from '../src/handlers.ts';
import { openLedger, type Ledger } from '../src/ledger.ts';

let dir: string;
let store: DocumentStore;
let ledger: Ledger;
let handlers: AuditHandlers;

const ctxOf = (tenantId: string): RequestContext =>
  systemContext({ id: tenantId, currency: 'USD', defaultVertical: 'roofing' }, 'listAudit');

function event(tenantId: string, n: number): DomainEvent {
  const ctx = { ...ctxOf(tenantId), operation: 'createLead' };
  return domainEvent('crm', ctx, 'lead.created', { kind: 'lead', id: `lead_${n}` }, {}).value as DomainEvent;
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'audit-handlers-'));
  store = await openEmbeddedStore({ dir, fsync: 'never' });
  ledger = await openLedger(store);
  handlers = createAuditHandlers(ledger);
  for (let n = 1; n <= 3; n += 1) await ledger.append(event('ten_a', n));
  await ledger.append(event('ten_b', 9));
});

afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

it('lists the calling tenant’s entries as an EntryPage, with "" for no next page', async () => {
  const request = audit.ListEntriesRequest.fromPartial({ page: { cursor: '', limit: 2 } });
  const first = await handlers.listEntries(request, ctxOf('ten_a'));
  expect(first.items.map((e) => e.seq)).toEqual([3, 2]);
  expect(first.nextCursor).not.toBe('');
  const rest = await handlers.listEntries({ page: { cursor: first.nextCursor, limit: 2 } }, ctxOf('ten_a'));
  expect(rest).toEqual({ items: [expect.objectContaining({ seq: 1 })], nextCursor: '' });
  // The wire format round-trips what the handler returns.
  expect(audit.EntryPage.decode(audit.EntryPage.encode(rest).finish())).toEqual(rest);
});

it('answers itemsAsJson with the JSON of exactly what items decode to, page by page', async () => {
  const pages = await pagesBothWays((page) => handlers.listEntries({ page }, ctxOf('ten_a')), audit.Entry);
  expect(pages).toHaveLength(2);
  for (const page of pages) expect(page.json).toEqual(page.items);
});

it('treats empty optional filters and a zero limit as absent', async () => {
  const page = await handlers.listEntries(
    { page: { cursor: '', limit: 0 }, resourceId: '', tokenId: '', action: '', runId: '' },
    ctxOf('ten_a'),
  );
  expect(page.items).toHaveLength(3);
  const filtered = await handlers.listEntries({ resourceId: 'lead_2' }, ctxOf('ten_a'));
  expect(filtered.items.map((e) => e.resourceId)).toEqual(['lead_2']);
});

it('verifies the calling tenant’s chain and proves an entry', async () => {
  const [newest] = (await handlers.listEntries({}, ctxOf('ten_a'))).items;
  const whole = await handlers.verify({}, ctxOf('ten_a'));
  expect(whole).toEqual({
    valid: true,
    length: 3,
    headHash: newest?.hash,
    headSeq: 3,
    brokenAtSeq: undefined,
    problem: undefined,
    proof: [],
    genesisHash: genesisHash('ten_a'),
  });
  const proved = await handlers.verify({ entryId: newest?.id }, ctxOf('ten_a'));
  expect(proved.proof).toEqual([newest]);
  expect(audit.VerifyResult.decode(audit.VerifyResult.encode(proved).finish())).toEqual(proved);
});

it('never shows or proves another tenant’s entries', async () => {
  const [foreign] = (await handlers.listEntries({}, ctxOf('ten_b'))).items;
  expect((await handlers.listEntries({}, ctxOf('ten_a'))).items.map((e) => e.id)).not.toContain(foreign?.id);
  await expect(handlers.verify({ entryId: foreign?.id }, ctxOf('ten_a'))).rejects.toMatchObject({
    code: 'not_found',
  });
});

it('refuses a call without a tenant in its context', async () => {
  const ctx: RequestContext = { ...ctxOf('ten_a'), tenant: undefined };
  await expect(handlers.listEntries({}, ctx)).rejects.toMatchObject({ code: 'internal' });
  await expect(handlers.verify({}, ctx)).rejects.toMatchObject({ code: 'internal' });
});
