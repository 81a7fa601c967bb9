// The write RPC declarations (writeRpcOf, outcomeWriteRpcOf) against the embedded store: the plan
// gets the deps, the caller's tenant and the request; the answer carries the result under its
// name (or spread) with the write's meta; a key replays; a context without a tenant is refused.
import type { RequestContext } from '../src/context.ts';
import { newId } from '../src/ids.ts';
import { testContext } from '../src/testing/service-test.ts';
import type { DocumentStore } from '../src/store/port.ts';
import { outcomeWriteRpcOf, withContextTenant, withPlanArg, writeRpcOf } from '../src/write/index.ts';
import type { WritePlan } from '../src/write/index.ts';
import { NOTES, notesStoreEach, type Note } from './support/notes-store.ts';

const TENANT = 'ten_rpc';

const context = (overrides: Partial<RequestContext> = {}): RequestContext =>
  testContext({ tenantId: TENANT, operation: 'createNote', ...overrides });

/** Inserts one note titled as asked (with a suffix when given); the result is the note's view. */
async function planNote(
  _store: DocumentStore,
  tenantId: string,
  req: { title: string },
  _ctx: RequestContext,
  suffix = '',
): Promise<WritePlan<{ id: string; title: string }>> {
  const doc: Note = { id: newId('note'), tenantId, version: 1, title: req.title + suffix };
  return {
    ops: [{ op: 'insert', collection: NOTES, doc }],
    result: { id: doc.id, title: doc.title },
    created: true,
    rehearsal: { willDo: `Create note "${doc.title}".`, effects: [] },
  };
}

const createNote = writeRpcOf('createNote', 'note', planNote);

describe('write RPC declarations', () => {
  const storeOf = notesStoreEach('write-rpc-');
  let store: DocumentStore;
  beforeEach(() => {
    store = storeOf();
  });

  it('answers the result under its name with the meta, and replays by key', async () => {
    const ctx = context({ idempotencyKey: 'k1' });
    const first = await createNote(store, { title: 'one' }, ctx);
    expect(first).toEqual({
      note: { id: expect.any(String), title: 'one' },
      meta: { replayed: false, deduped: false, created: true, rehearsal: undefined },
    });
    const again = await createNote(store, { title: 'one' }, ctx);
    expect(again.note).toEqual(first.note);
    expect(again.meta.replayed).toBe(true);
  });

  it('spreads an outcome beside the meta', async () => {
    const createOutcome = outcomeWriteRpcOf('createNote', planNote);
    const answer = await createOutcome(store, { title: 'two' }, context());
    expect(answer).toEqual({
      id: expect.any(String),
      title: 'two',
      meta: expect.objectContaining({ created: true }),
    });
  });

  it('takes its store from a deps object, and passes a plan argument or no tenant through', async () => {
    const withArg = writeRpcOf('createNote', 'note', withPlanArg(planNote, '!'));
    expect((await withArg(store, { title: 'three' }, context())).note.title).toBe('three!');
    const ownTenant = writeRpcOf(
      'createNote',
      'note',
      withContextTenant((deps: { store: DocumentStore }, req: { title: string }, ctx: RequestContext) =>
        planNote(deps.store, ctx.tenant?.id ?? '', req, ctx),
      ),
    );
    expect((await ownTenant({ store }, { title: 'four' }, context())).note.title).toBe('four');
  });

  it('refuses a context without a tenant before planning', async () => {
    await expect(createNote(store, { title: 'five' }, context({ tenant: undefined }))).rejects.toMatchObject({
      code: 'internal',
    });
    expect(await store.count(NOTES, TENANT, {})).toBe(0);
  });
});
