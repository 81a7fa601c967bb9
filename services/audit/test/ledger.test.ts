import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RequestContext, AppError } from '@fieldops/kit';
import { domainEvent, type DomainEvent } from '@fieldops/kit/events';
import { openEmbeddedStore, type Doc, type DocumentStore } from '@fieldops/kit/store';
import { genesisHash, hashEntry, type AuditEntry } from '../src/chain.ts';
import { openLedger, type Ledger } from '../src/ledger.ts';

let dir: string;
let store: DocumentStore;
let ledger: Ledger;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'audit-ledger-'));
  store = await openEmbeddedStore({ dir, fsync: 'never' });
  ledger = await openLedger(store);
});

afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

function context(tenantId: string, overrides: Partial<RequestContext> = {}): RequestContext {
  return {
    requestId: 'req_1',
    tenant: { id: tenantId, currency: 'USD', defaultVertical: 'roofing' },
    principal: { kind: 'token', tokenId: 'tok_1', role: 'Manager', memberId: 'mem_1' },
    idempotencyKey: '',
    agent: { runId: '', task: '', model: '', confirmedBy: '' },
    dryRun: false,
    operation: 'createLead',
    ...overrides,
  };
}

/** The envelope exactly as a service's outbox emits it. */
function event(tenantId: string, n: number, overrides: Partial<RequestContext> = {}): DomainEvent {
  const ctx = context(tenantId, { requestId: `req_${n}`, ...overrides });
  return domainEvent('crm', ctx, 'lead.created', { kind: 'lead', id: `lead_${n}` }, { n })
    .value as DomainEvent;
}

async function listAll(tenantId: string): Promise<AuditEntry[]> {
  const all: AuditEntry[] = [];
  let cursor: string | undefined;
  do {
    const page = await ledger.list(tenantId, { cursor, limit: 100 });
    all.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return all;
}

const seqsOf = (entries: AuditEntry[]): number[] => entries.map((e) => e.seq).sort((a, b) => a - b);
const oneTo = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

/** Changes stored fields behind the ledger's back, the way someone with database access would. */
async function tamper(collection: string, tenantId: string, id: string, changes: Record<string, unknown>) {
  const doc = await store.get<Doc>(collection, tenantId, id);
  if (!doc) throw new Error(`no ${collection} ${id}`);
  await store.commit(tenantId, [
    { op: 'replace', collection, doc: { ...doc, ...changes }, expectedVersion: doc.version },
  ]);
}

async function entryAt(tenantId: string, seq: number): Promise<AuditEntry> {
  const entry = (await listAll(tenantId)).find((e) => e.seq === seq);
  if (!entry) throw new Error(`no entry at seq ${seq}`);
  return entry;
}

async function appendMany(tenantId: string, count: number): Promise<void> {
  for (let n = 1; n <= count; n += 1) await ledger.append(event(tenantId, n));
}

describe('append', () => {
  it('records a redelivered event once', async () => {
    const evt = event('ten_a', 1);
    const first = await ledger.append(evt);
    const again = await ledger.append(structuredClone(evt));
    expect(first.appended).toBe(true);
    expect(again).toEqual({ appended: false, entry: first.entry });
    expect(await listAll('ten_a')).toHaveLength(1);
  });

  it('keeps one valid chain per tenant, seq 1..n, across 200 events of 3 tenants', async () => {
    const tenants = ['ten_a', 'ten_b', 'ten_c'];
    for (let n = 0; n < 200; n += 1) await ledger.append(event(tenants[n % 3] as string, n));
    for (const [index, tenantId] of tenants.entries()) {
      const expected = Math.ceil((200 - index) / 3);
      const entries = await listAll(tenantId);
      expect(seqsOf(entries)).toEqual(oneTo(expected));
      const result = await ledger.verify(tenantId);
      expect(result).toMatchObject({ valid: true, length: expected, headSeq: expected });
      expect(result.genesisHash).toBe(genesisHash(tenantId));
      expect(result.headHash).toBe(entries[0]?.hash);
    }
  });

  it('records who wrote, under which request and key, and the agent headers', async () => {
    const agent = { runId: 'run_42', task: 'import leads', model: 'model-x', confirmedBy: 'mem_boss' };
    const evt = event('ten_a', 7, { idempotencyKey: 'op-7', agent, operation: 'createLead' });
    const { entry } = await ledger.append(evt);
    expect(entry).toMatchObject({
      seq: 1,
      eventId: evt.id,
      at: evt.occurredAt,
      action: 'lead.created',
      operation: 'createLead',
      resourceKind: 'lead',
      resourceId: 'lead_7',
      principalKind: 'token',
      tokenId: 'tok_1',
      memberId: 'mem_1',
      requestId: 'req_7',
      idempotencyKey: 'op-7',
      agent,
      prevHash: genesisHash('ten_a'),
    });
    expect(entry.id).toMatch(/^aud_/);
    expect(entry.hash).toBe(hashEntry(entry, entry.prevHash));
    expect(await listAll('ten_a')).toEqual([{ ...entry, redacted: false }]);
  });

  it('keeps one linear chain under concurrent appends, also from two ledgers on one store', async () => {
    const other = await openLedger(store);
    const events = Array.from({ length: 40 }, (_, n) => event('ten_a', n));
    // The first ten arrive twice in the same burst, as a redelivery racing the original would.
    const burst = [...events, ...events.slice(0, 10).map((evt) => structuredClone(evt))];
    const results = await Promise.all(burst.map((evt, n) => (n % 2 ? other : ledger).append(evt)));
    expect(results.filter((r) => r.appended)).toHaveLength(40);
    const entries = await listAll('ten_a');
    expect(seqsOf(entries)).toEqual(oneTo(40));
    expect(new Set(entries.map((e) => e.eventId))).toEqual(new Set(events.map((e) => e.id)));
    expect(await ledger.verify('ten_a')).toMatchObject({ valid: true, length: 40, headSeq: 40 });
  });
});

describe('list', () => {
  beforeEach(async () => {
    for (let n = 1; n <= 6; n += 1) {
      const agent = { runId: n % 2 ? 'run_odd' : 'run_even', task: '', model: '', confirmedBy: '' };
      const principal = { kind: 'token', tokenId: n <= 3 ? 'tok_1' : 'tok_2', role: 'Manager', memberId: '' };
      await ledger.append(event('ten_a', n, { agent, principal }));
    }
    await ledger.append(event('ten_b', 99));
  });

  it('pages newest first', async () => {
    const first = await ledger.list('ten_a', { limit: 4 });
    expect(first.items.map((e) => e.seq)).toEqual([6, 5, 4, 3]);
    const second = await ledger.list('ten_a', { limit: 4, cursor: first.nextCursor ?? '' });
    expect(second.items.map((e) => e.seq)).toEqual([2, 1]);
    expect(second.nextCursor).toBeNull();
  });

  it('filters by resource, token, action and agent run, within the tenant only', async () => {
    const seqs = async (query: Parameters<Ledger['list']>[1]) =>
      (await ledger.list('ten_a', query)).items.map((e) => e.seq);
    expect(await seqs({ resourceId: 'lead_2' })).toEqual([2]);
    expect(await seqs({ tokenId: 'tok_2' })).toEqual([6, 5, 4]);
    expect(await seqs({ runId: 'run_odd' })).toEqual([5, 3, 1]);
    expect(await seqs({ action: 'lead.created', runId: 'run_even', tokenId: 'tok_1' })).toEqual([2]);
    expect(await seqs({ action: 'deal.won' })).toEqual([]);
    expect(await seqs({ resourceId: 'lead_99' })).toEqual([]);
  });

  it('clamps the page size to 1..100', async () => {
    expect((await ledger.list('ten_a', { limit: 0 })).items).toHaveLength(6);
    expect((await ledger.list('ten_a', { limit: -5 })).items).toHaveLength(1);
    expect((await ledger.list('ten_a', { limit: 1000 })).items).toHaveLength(6);
  });

  it('refuses a cursor it did not issue as field_invalid', async () => {
    const refused = ledger.list('ten_a', { cursor: 'not-a-cursor' });
    await expect(refused).rejects.toBeInstanceOf(AppError);
    await expect(refused).rejects.toMatchObject({ code: 'field_invalid', extras: { field: 'cursor' } });
  });
});

describe('verify', () => {
  beforeEach(() => appendMany('ten_a', 8));

  it('finds an entry altered in the store and says which', async () => {
    const victim = await entryAt('ten_a', 4);
    await tamper('entries', 'ten_a', victim.id, { tokenId: 'tok_someone_else' });
    const result = await ledger.verify('ten_a');
    expect(result).toMatchObject({ valid: false, brokenAtSeq: 4 });
    expect(result.problem).toContain(`Entry ${victim.id} at seq 4 was altered`);
  });

  it('finds an entry removed from the store and names the gap', async () => {
    const victim = await entryAt('ten_a', 5);
    await store.commit('ten_a', [{ op: 'delete', collection: 'entries', id: victim.id }]);
    const result = await ledger.verify('ten_a');
    expect(result).toMatchObject({ valid: false, brokenAtSeq: 5, length: 7 });
    expect(result.problem).toMatch(/seq 5 is missing/);
  });

  it('finds two entries whose seq numbers were swapped and names both', async () => {
    const [second, sixth] = [await entryAt('ten_a', 2), await entryAt('ten_a', 6)];
    // Through a free seq, because seq is unique.
    await tamper('entries', 'ten_a', second.id, { seq: 1000 });
    await tamper('entries', 'ten_a', sixth.id, { seq: 2 });
    await tamper('entries', 'ten_a', second.id, { seq: 6 });
    const result = await ledger.verify('ten_a');
    expect(result).toMatchObject({ valid: false, brokenAtSeq: 2 });
    expect(result.problem).toMatch(/reordered/);
    expect(result.problem).toContain('the entry recorded at seq 2 is now at seq 6');
  });

  it('finds the newest entry removed, through the head', async () => {
    const newest = await entryAt('ten_a', 8);
    await store.commit('ten_a', [{ op: 'delete', collection: 'entries', id: newest.id }]);
    const result = await ledger.verify('ten_a');
    expect(result).toMatchObject({ valid: false, brokenAtSeq: 8 });
    expect(result.problem).toMatch(/head records seq 8 but the last entry is seq 7/);
  });

  it('finds a forged head', async () => {
    await tamper('heads', 'ten_a', 'head_ten_a', { hash: 'f'.repeat(64) });
    const result = await ledger.verify('ten_a');
    expect(result).toMatchObject({ valid: false, brokenAtSeq: 8 });
    expect(result.problem).toMatch(/head record was forged/);
  });

  it('proves an entry: the chain from it to the head recomputes to the head hash', async () => {
    const third = await entryAt('ten_a', 3);
    const result = await ledger.verify('ten_a', third.id);
    expect(result.valid).toBe(true);
    expect(result.proof.map((e) => e.seq)).toEqual([3, 4, 5, 6, 7, 8]);
    expect(result.proof[0]).toEqual(third);
    const recomputed = result.proof.reduce((prev, entry) => {
      expect(entry.prevHash).toBe(prev);
      return hashEntry(entry, prev);
    }, third.prevHash);
    expect(recomputed).toBe(result.headHash);
  });

  it('answers not_found for an entry id it does not know, or of another tenant', async () => {
    await appendMany('ten_b', 1);
    const foreign = await entryAt('ten_b', 1);
    await expect(ledger.verify('ten_a', 'aud_nope')).rejects.toMatchObject({ code: 'not_found' });
    await expect(ledger.verify('ten_a', foreign.id)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('reports an empty chain as valid at the genesis', async () => {
    const result = await ledger.verify('ten_empty');
    expect(result).toMatchObject({ valid: true, length: 0, headSeq: 0, proof: [] });
    expect(result.headHash).toBe(genesisHash('ten_empty'));
  });
});
