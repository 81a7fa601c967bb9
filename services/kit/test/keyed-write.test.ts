// runWrite against the embedded store: exactly-once by key (also under 20 concurrent duplicates),
// refusal of a reused key, dry runs that store nothing, and re-planning after a lost race.
import type { RequestContext } from '../src/context.ts';
import { AppError } from '../src/errors.ts';
import { domainEvent } from '../src/events/envelope.ts';
import { newId } from '../src/ids.ts';
import { testContext } from '../src/testing/service-test.ts';
import type { DocumentStore } from '../src/store/port.ts';
import { canonicalJson, IDEMPOTENCY_COLLECTION, MAX_PLAN_RERUNS, runWrite } from '../src/write/index.ts';
import type { WritePlan } from '../src/write/index.ts';
import { NOTES, notesStoreEach, type Note } from './support/notes-store.ts';

const TENANT = 'ten_write';

function context(overrides: Partial<RequestContext> = {}): RequestContext {
  return testContext({ tenantId: TENANT, operation: 'createNote', ...overrides });
}

/** A plan that inserts one note and emits note.created; it yields first so concurrent calls interleave. */
function notePlan(ctx: RequestContext, title: string, counter = { runs: 0 }) {
  return async (): Promise<WritePlan<{ id: string; title: string }>> => {
    counter.runs++;
    await new Promise((resolve) => setImmediate(resolve));
    const doc: Note = { id: newId('note'), tenantId: TENANT, version: 1, title };
    return {
      ops: [
        { op: 'insert', collection: NOTES, doc },
        {
          op: 'emit',
          event: domainEvent('crm', ctx, 'note.created', { kind: 'note', id: doc.id }, { title }),
        },
      ],
      result: { id: doc.id, title },
      created: true,
      rehearsal: {
        willDo: `Create note "${title}".`,
        effects: [{ action: 'create', kind: 'note', id: doc.id, changes: [{ field: 'title', to: title }] }],
      },
    };
  };
}

const createNote = (store: DocumentStore, ctx: RequestContext, title: string, counter?: { runs: number }) =>
  runWrite(store, ctx, {
    operation: 'createNote',
    fingerprint: { title },
    plan: notePlan(ctx, title, counter),
  });

const notes = (store: DocumentStore) => store.find<Note>(NOTES, TENANT, {});
const records = (store: DocumentStore) => store.find(IDEMPOTENCY_COLLECTION, TENANT, {});

describe('runWrite', () => {
  const storeOf = notesStoreEach('keyed-write-');
  let store: DocumentStore;
  beforeEach(() => {
    store = storeOf();
  });

  it('commits the plan and its event together and reports created', async () => {
    const { result, meta } = await createNote(store, context(), 'first');
    expect(meta).toEqual({ replayed: false, deduped: false, created: true, rehearsal: undefined });
    expect(await notes(store)).toEqual([expect.objectContaining({ id: result.id, title: 'first' })]);
    const outbox = await store.pendingOutbox(10);
    expect(outbox).toHaveLength(1);
    expect(outbox[0]?.value).toMatchObject({ type: 'note.created', resource: { id: result.id } });
  });

  it('without a key stores no idempotency record, so a retry writes again', async () => {
    await createNote(store, context(), 'a');
    await createNote(store, context(), 'b');
    expect(await notes(store)).toHaveLength(2);
    expect(await records(store)).toHaveLength(0);
  });

  it('replays the original result with replayed true and writes nothing new', async () => {
    const counter = { runs: 0 };
    const first = await createNote(store, context({ idempotencyKey: 'op-1' }), 'once', counter);
    const again = await createNote(store, context({ idempotencyKey: 'op-1' }), 'once', counter);
    expect(again.result).toEqual(first.result);
    expect(again.meta).toEqual({ replayed: true, deduped: false, created: false, rehearsal: undefined });
    expect(counter.runs).toBe(1);
    expect(await notes(store)).toHaveLength(1);
    expect(await store.pendingOutbox(10)).toHaveLength(1);
    expect(await records(store)).toEqual([
      expect.objectContaining({ key: 'op-1', operation: 'createNote', result: first.result }),
    ]);
  });

  it('refuses the same key with a different payload or operation (field_invalid on opId)', async () => {
    await createNote(store, context({ idempotencyKey: 'op-2' }), 'original');
    const differentPayload = createNote(store, context({ idempotencyKey: 'op-2' }), 'changed');
    await expect(differentPayload).rejects.toMatchObject({
      code: 'field_invalid',
      extras: { field: 'opId' },
    });
    const differentOperation = runWrite(store, context({ idempotencyKey: 'op-2' }), {
      operation: 'createOther',
      fingerprint: { title: 'original' },
      plan: notePlan(context(), 'original'),
    });
    await expect(differentOperation).rejects.toBeInstanceOf(AppError);
    await expect(differentOperation).rejects.toMatchObject({ code: 'field_invalid' });
    expect(await notes(store)).toHaveLength(1);
  });

  it('replays only to the credential that wrote: another token gets field_invalid, not the result', async () => {
    const as = (tokenId: string) =>
      context({
        idempotencyKey: 'op-cred',
        principal: { kind: 'token', tokenId, role: 'Manager', memberId: '' },
      });
    const first = await createNote(store, as('tok_writer'), 'private');
    const other = createNote(store, as('tok_other'), 'private');
    await expect(other).rejects.toMatchObject({ code: 'field_invalid', extras: { field: 'opId' } });
    await expect(other).rejects.toThrow(/another credential/);
    const again = await createNote(store, as('tok_writer'), 'private');
    expect([again.result, again.meta.replayed]).toEqual([first.result, true]);
    // A system write (no token) replays as before.
    expect((await createNote(store, as(''), 'private')).meta.replayed).toBe(true);
    expect(await records(store)).toEqual([expect.objectContaining({ tokenId: 'tok_writer' })]);
    expect(await notes(store)).toHaveLength(1);
  });

  it('keys are per tenant', async () => {
    const other = context({
      idempotencyKey: 'shared',
      tenant: { id: 'ten_other', currency: 'EUR', defaultVertical: '' },
    });
    await createNote(store, context({ idempotencyKey: 'shared' }), 'mine');
    const theirs = await runWrite(store, other, {
      operation: 'createNote',
      fingerprint: { title: 'theirs' },
      plan: async () => ({
        ops: [
          {
            op: 'insert',
            collection: NOTES,
            doc: { id: newId('note'), tenantId: 'ten_other', version: 1, title: 'theirs' },
          },
        ],
        result: 'theirs',
        created: true,
        rehearsal: { willDo: '', effects: [] },
      }),
    });
    expect(theirs.meta.replayed).toBe(false);
    expect(await store.find(NOTES, 'ten_other', {})).toHaveLength(1);
  });

  it('commits exactly once when 20 calls with the same key race', async () => {
    const counter = { runs: 0 };
    const calls = Array.from({ length: 20 }, () =>
      createNote(store, context({ idempotencyKey: 'race-1' }), 'raced', counter),
    );
    const outcomes = await Promise.all(calls);
    expect(counter.runs).toBeGreaterThan(1); // they really did race
    expect(await notes(store)).toHaveLength(1);
    expect(await store.pendingOutbox(100)).toHaveLength(1);
    expect(await records(store)).toHaveLength(1);
    const winners = outcomes.filter((outcome) => !outcome.meta.replayed);
    expect(winners).toHaveLength(1);
    for (const outcome of outcomes) expect(outcome.result).toEqual(winners[0]?.result);
  });

  it('commits exactly once when only the idempotency key stops the duplicates', async () => {
    // Every racer inserts a differently titled note, so the key is the only unique that collides.
    let n = 0;
    const calls = Array.from({ length: 20 }, () => {
      const ctx = context({ idempotencyKey: 'race-2' });
      return runWrite(store, ctx, {
        operation: 'createNote',
        fingerprint: { title: 'same' },
        plan: notePlan(ctx, `t${n++}`),
      });
    });
    const outcomes = await Promise.all(calls);
    expect(await notes(store)).toHaveLength(1);
    expect(await store.pendingOutbox(100)).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.meta.replayed)).toHaveLength(1);
    expect(new Set(outcomes.map((outcome) => outcome.result.id)).size).toBe(1);
  });

  it('a dry run rehearses and stores nothing, not even the key', async () => {
    const { result, meta } = await createNote(
      store,
      context({ dryRun: true, idempotencyKey: 'dry-1' }),
      'draft',
    );
    expect(result.title).toBe('draft');
    expect(meta.created).toBe(false);
    expect(meta.rehearsal).toEqual({
      willDo: 'Create note "draft".',
      effects: [
        { action: 'create', kind: 'note', id: result.id, changes: [{ field: 'title', to: 'draft' }] },
      ],
    });
    expect(await notes(store)).toHaveLength(0);
    expect(await records(store)).toHaveLength(0);
    expect(await store.pendingOutbox(10)).toHaveLength(0);
    // The key is still free: the real call applies.
    const real = await createNote(store, context({ idempotencyKey: 'dry-1' }), 'draft');
    expect(real.meta.replayed).toBe(false);
    expect(await notes(store)).toHaveLength(1);
  });

  it('a dry run with a used key rehearses the replay (or the refusal) and stores nothing', async () => {
    const first = await createNote(store, context({ idempotencyKey: 'dry-2' }), 'kept');
    const dry = await createNote(store, context({ dryRun: true, idempotencyKey: 'dry-2' }), 'kept');
    expect(dry.result).toEqual(first.result);
    expect(dry.meta.replayed).toBe(true);
    expect(dry.meta.rehearsal?.effects).toEqual([]);
    await expect(
      createNote(store, context({ dryRun: true, idempotencyKey: 'dry-2' }), 'other'),
    ).rejects.toMatchObject({
      code: 'field_invalid',
    });
    expect(await notes(store)).toHaveLength(1);
  });

  it('a failed write leaves the key unused', async () => {
    const failing = runWrite(store, context({ idempotencyKey: 'fail-1' }), {
      operation: 'createNote',
      fingerprint: { title: 'x' },
      plan: async () => {
        throw new AppError('not_found', 'nothing here');
      },
    });
    await expect(failing).rejects.toMatchObject({ code: 'not_found' });
    expect(await records(store)).toHaveLength(0);
    const retried = await createNote(store, context({ idempotencyKey: 'fail-1' }), 'x');
    expect(retried.meta.replayed).toBe(false);
  });

  describe('when the state moves between read and commit', () => {
    const seed = async (): Promise<Note> => {
      const doc: Note = { id: 'note_1', tenantId: TENANT, version: 1, title: 'v1' };
      await store.commit(TENANT, [{ op: 'insert', collection: NOTES, doc }]);
      return doc;
    };
    const bump = async (title: string): Promise<void> => {
      const current = await store.get<Note>(NOTES, TENANT, 'note_1');
      if (!current) throw new Error('seeded note missing');
      await store.commit(TENANT, [
        { op: 'replace', collection: NOTES, doc: { ...current, title }, expectedVersion: current.version },
      ]);
    };
    /** Reads the note, lets `interfere` change it, then plans a rename from what it read. */
    const renamePlan = (interfere: (run: number) => Promise<void>, counter: { runs: number }) => async () => {
      const read = await store.get<Note>(NOTES, TENANT, 'note_1');
      if (!read) throw new Error('seeded note missing');
      await interfere(++counter.runs);
      const doc: Note = { ...read, title: `${read.title}+renamed` };
      return {
        ops: [{ op: 'replace' as const, collection: NOTES, doc, expectedVersion: read.version }],
        result: doc.title,
        created: false,
        rehearsal: { willDo: 'Rename.', effects: [] },
      };
    };

    it('re-runs the plan on fresh state after a version conflict', async () => {
      await seed();
      const counter = { runs: 0 };
      const plan = renamePlan((run) => (run === 1 ? bump('v2') : Promise.resolve()), counter);
      const { result } = await runWrite(store, context({ idempotencyKey: 'rename-1' }), {
        operation: 'renameNote',
        fingerprint: {},
        plan,
      });
      expect(counter.runs).toBe(2);
      expect(result).toBe('v2+renamed');
      expect((await store.get<Note>(NOTES, TENANT, 'note_1'))?.title).toBe('v2+renamed');
    });

    it(`gives up with conflict after ${MAX_PLAN_RERUNS} re-runs`, async () => {
      await seed();
      const counter = { runs: 0 };
      const plan = renamePlan((run) => bump(`v${run + 1}`), counter);
      const write = runWrite(store, context({ idempotencyKey: 'rename-2' }), {
        operation: 'renameNote',
        fingerprint: {},
        plan,
      });
      await expect(write).rejects.toMatchObject({ code: 'conflict', retryable: true });
      expect(counter.runs).toBe(MAX_PLAN_RERUNS + 1);
      expect(await records(store)).toHaveLength(0);
    });
  });
});

describe('canonicalJson', () => {
  it('ignores key order and undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: undefined, c: [1, { y: 2, x: 1 }] } })).toBe(
      canonicalJson({ a: { c: [1, { x: 1, y: 2 }] }, b: 1 }),
    );
  });

  it('tells different values apart', () => {
    expect(canonicalJson({ a: '1' })).not.toBe(canonicalJson({ a: 1 }));
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
  });
});
