import { canonicalEntry, genesisHash, hashEntry, verifyChain } from '../src/chain.ts';
import type { AuditEntry } from '../src/chain.ts';

const TENANT = 'ten_chain';

function entry(seq: number, prevHash: string): AuditEntry {
  const body: AuditEntry = {
    seq,
    id: `aud_${seq}`,
    eventId: `evt_${seq}`,
    at: `2025-01-01T00:00:${String(seq).padStart(2, '0')}.000Z`,
    action: 'lead.created',
    operation: 'createLead',
    resourceKind: 'lead',
    resourceId: `lead_${seq}`,
    principalKind: 'token',
    tokenId: 'tok_1',
    memberId: '',
    requestId: `req_${seq}`,
    idempotencyKey: '',
    agent: { runId: 'run_1', task: 'import', model: 'm', confirmedBy: '' },
    prevHash,
    hash: '',
  };
  return { ...body, hash: hashEntry(body, prevHash) };
}

function chain(length: number, tenantId = TENANT): AuditEntry[] {
  const entries: AuditEntry[] = [];
  let prev = genesisHash(tenantId);
  for (let seq = 1; seq <= length; seq += 1) {
    const next = entry(seq, prev);
    entries.push(next);
    prev = next.hash;
  }
  return entries;
}

const at = (entries: AuditEntry[], seq: number): AuditEntry => {
  const found = entries.find((e) => e.seq === seq);
  if (!found) throw new Error(`no seq ${seq}`);
  return found;
};

describe('hashing', () => {
  it('is a sha256 hex, stable under key order, and ignores the stored hash', () => {
    const one = entry(1, genesisHash(TENANT));
    const reordered = Object.fromEntries(Object.entries(one).reverse()) as unknown as AuditEntry;
    expect(one.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(canonicalEntry(reordered)).toBe(canonicalEntry(one));
    expect(hashEntry({ ...one, hash: 'anything' }, one.prevHash)).toBe(one.hash);
    expect(canonicalEntry(one)).not.toContain('"hash"');
  });

  it('covers every field and the previous hash', () => {
    const one = entry(1, genesisHash(TENANT));
    expect(hashEntry({ ...one, tokenId: 'tok_2' }, one.prevHash)).not.toBe(one.hash);
    expect(hashEntry({ ...one, agent: { ...one.agent!, model: 'other' } }, one.prevHash)).not.toBe(one.hash);
    expect(hashEntry(one, 'f'.repeat(64))).not.toBe(one.hash);
  });

  it('starts each tenant at its own genesis', () => {
    expect(genesisHash('ten_a')).not.toBe(genesisHash('ten_b'));
    expect(genesisHash('ten_a')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('verifyChain', () => {
  it('accepts an intact chain and reports its head', () => {
    const entries = chain(5);
    const result = verifyChain(TENANT, entries, { seq: 5, hash: at(entries, 5).hash });
    expect(result).toEqual({
      valid: true,
      length: 5,
      headSeq: 5,
      headHash: at(entries, 5).hash,
      genesisHash: genesisHash(TENANT),
    });
  });

  it('accepts an empty chain whose head is the genesis', () => {
    expect(verifyChain(TENANT, [])).toMatchObject({ valid: true, length: 0, headSeq: 0 });
    expect(verifyChain(TENANT, []).headHash).toBe(genesisHash(TENANT));
  });

  it('finds an altered entry', () => {
    const entries = chain(5).map((e) => (e.seq === 3 ? { ...e, action: 'lead.deleted' } : e));
    const result = verifyChain(TENANT, entries);
    expect(result).toMatchObject({ valid: false, brokenAtSeq: 3 });
    expect(result.problem).toMatch(/seq 3 was altered/);
  });

  it('finds an altered entry whose hash was recomputed, at the next link', () => {
    const entries = chain(5).map((e) => {
      if (e.seq !== 3) return e;
      const forged = { ...e, tokenId: 'tok_evil' };
      return { ...forged, hash: hashEntry(forged, e.prevHash) };
    });
    const result = verifyChain(TENANT, entries);
    expect(result).toMatchObject({ valid: false, brokenAtSeq: 4 });
    expect(result.problem).toMatch(/seq 4 does not link to the hash of entry seq 3/);
  });

  it('finds removed entries and names the gap', () => {
    const result = verifyChain(
      TENANT,
      chain(6).filter((e) => e.seq !== 3 && e.seq !== 4),
    );
    expect(result).toMatchObject({ valid: false, brokenAtSeq: 3 });
    expect(result.problem).toMatch(/seq 3 to 4 are missing/);
  });

  it('finds a removed first entry', () => {
    const result = verifyChain(TENANT, chain(3).slice(1));
    expect(result).toMatchObject({ valid: false, brokenAtSeq: 1 });
    expect(result.problem).toMatch(/seq 1 is missing/);
  });

  it('finds two entries whose seq numbers were swapped', () => {
    const entries = chain(6);
    const swapped = entries
      .map((e) => (e.seq === 2 ? { ...e, seq: 5 } : e.seq === 5 ? { ...e, seq: 2 } : e))
      .sort((a, b) => a.seq - b.seq);
    const result = verifyChain(TENANT, swapped);
    expect(result).toMatchObject({ valid: false, brokenAtSeq: 2 });
    expect(result.problem).toMatch(/reordered/);
    expect(result.problem).toMatch(/the entry recorded at seq 2 is now at seq 5/);
  });

  it('refuses a chain that does not start at this tenant’s genesis', () => {
    const result = verifyChain('ten_other', chain(2));
    expect(result).toMatchObject({ valid: false, brokenAtSeq: 1 });
    expect(result.problem).toMatch(/genesis/);
  });

  it('finds entries cut off the end through the head', () => {
    const entries = chain(5);
    const result = verifyChain(TENANT, entries.slice(0, 3), { seq: 5, hash: at(entries, 5).hash });
    expect(result).toMatchObject({ valid: false, brokenAtSeq: 4 });
    expect(result.problem).toMatch(/newest entries were removed/);
  });

  it('finds a forged head', () => {
    const entries = chain(5);
    const result = verifyChain(TENANT, entries, { seq: 5, hash: 'f'.repeat(64) });
    expect(result).toMatchObject({ valid: false, brokenAtSeq: 5 });
    expect(result.problem).toMatch(/head record was forged/);
  });
});
