// The change-feed projection: per tenant, an ordered and persisted sequence of changes, fed by the
// domain events every service publishes. Each change is committed together with the tenant's new
// head, so sequence numbers never repeat or leave a gap; the event id is unique, so a redelivered
// event is recorded once.
import { AppError } from '@fieldops/kit';
import {
  StoreConflict,
  type CollectionSpec,
  type Doc,
  type DocumentStore,
  type Filter,
  type WriteOp,
} from '@fieldops/kit/store';
import type { Change } from './change-of-event.ts';

const CHANGES = 'changes';
const HEADS = 'heads';
const MAX_APPEND_ATTEMPTS = 100;

export interface SequencedChange extends Change {
  seq: number;
}

/** Stored with the store's own id; the resource's id is kept as resourceId. */
type ChangeDoc = Doc & Omit<SequencedChange, 'id'> & { resourceId: string };
type HeadDoc = Doc & { seq: number };

/** Which changes a caller may see: kinds read freely, and kinds read only within some projects. */
export interface ChangeVisibility {
  kinds: readonly string[];
  /** Kinds about a project, with the projects the caller may see (null: every project). */
  projectKinds: readonly string[];
  projectIds: readonly string[] | null;
}

export interface ChangePage {
  items: SequencedChange[];
  /** The sequence number of the tenant's last change (0 when none). */
  headSeq: number;
}

export interface ChangeFeed {
  /** False when the event was already recorded. */
  append(tenantId: string, change: Change): Promise<boolean>;
  /** Changes after `afterSeq`, oldest first, that the visibility lets through. */
  read(tenantId: string, afterSeq: number, limit: number, visibility: ChangeVisibility): Promise<ChangePage>;
  headSeq(tenantId: string): Promise<number>;
}

const headId = (tenantId: string): string => `head_${tenantId}`;

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function headOp(tenantId: string, head: HeadDoc | null, seq: number): WriteOp {
  const doc = { id: headId(tenantId), tenantId, seq };
  if (!head) return { op: 'insert', collection: HEADS, doc: { ...doc, version: 1 } };
  return {
    op: 'replace',
    collection: HEADS,
    doc: { ...doc, version: head.version + 1 },
    expectedVersion: head.version,
  };
}

function visibilityFilter(visibility: ChangeVisibility): Filter {
  const projectKinds = visibility.projectKinds.filter((kind) => visibility.kinds.includes(kind));
  const freeKinds = visibility.kinds.filter((kind) => !projectKinds.includes(kind));
  if (visibility.projectIds === null) return { kind: { $in: [...visibility.kinds] } };
  return {
    $or: [
      { kind: { $in: freeKinds } },
      { kind: { $in: projectKinds }, projectId: { $in: [...visibility.projectIds] } },
    ],
  };
}

const toChange = ({
  tenantId: _t,
  version: _v,
  id: _docId,
  resourceId,
  ...change
}: ChangeDoc): SequencedChange => ({
  ...change,
  id: resourceId,
});

/** The change feed's collections (the `sync` store): what openChangeFeed defines, the migration builds. */
export const CHANGE_FEED_COLLECTIONS: readonly CollectionSpec[] = [
  { name: CHANGES, unique: [['eventId'], ['seq']], indexes: [['seq'], ['kind', 'seq']] },
  { name: HEADS },
];

export async function openChangeFeed(store: DocumentStore): Promise<ChangeFeed> {
  for (const spec of CHANGE_FEED_COLLECTIONS) await store.define(spec);

  const headSeq = async (tenantId: string): Promise<number> =>
    (await store.get<HeadDoc>(HEADS, tenantId, headId(tenantId)))?.seq ?? 0;

  /** One attempt: null when another append moved the head first. */
  const tryAppend = async (tenantId: string, change: Change): Promise<boolean | null> => {
    if (await store.findOne(CHANGES, tenantId, { eventId: change.eventId })) return false;
    const head = await store.get<HeadDoc>(HEADS, tenantId, headId(tenantId));
    const seq = (head?.seq ?? 0) + 1;
    const doc: ChangeDoc = {
      ...change,
      resourceId: change.id,
      seq,
      id: `chg_${tenantId}_${seq}`,
      tenantId,
      version: 1,
    };
    try {
      await store.commit(tenantId, [{ op: 'insert', collection: CHANGES, doc }, headOp(tenantId, head, seq)]);
      return true;
    } catch (error) {
      if (error instanceof StoreConflict) return null;
      throw error;
    }
  };

  const append = async (tenantId: string, change: Change): Promise<boolean> => {
    for (let attempt = 1; attempt <= MAX_APPEND_ATTEMPTS; attempt += 1) {
      const result = await tryAppend(tenantId, change);
      if (result !== null) return result;
      await pause(Math.random() * Math.min(2 ** attempt, 25));
    }
    // Retryable: the consumer hands the event back to the log, which redelivers it later.
    throw new AppError(
      'conflict',
      `Change feed append for tenant ${tenantId} lost ${MAX_APPEND_ATTEMPTS} races.`,
    );
  };

  const read = async (
    tenantId: string,
    afterSeq: number,
    limit: number,
    visibility: ChangeVisibility,
  ): Promise<ChangePage> => {
    // The head is read first: every change up to it is committed, so a page never races past it.
    const head = await headSeq(tenantId);
    const docs = await store.find<ChangeDoc>(
      CHANGES,
      tenantId,
      { ...visibilityFilter(visibility), seq: { $gt: afterSeq, $lte: head } },
      { sort: { field: 'seq', direction: 'asc' }, limit },
    );
    return { items: docs.map(toChange), headSeq: head };
  };

  return { append, read, headSeq };
}
