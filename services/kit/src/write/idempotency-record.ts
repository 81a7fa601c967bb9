// The idempotency record: one per tenant and key, stored in the same commit as the write it
// guards, so "the write happened" and "the key is used" can never disagree after a crash.
import { newId, nowIso } from '../ids.ts';
import type { CollectionSpec, Doc, DocumentStore, WriteOp } from '../store/port.ts';

export const IDEMPOTENCY_COLLECTION = 'idempotency';

/**
 * Every service that writes through runWrite defines this collection in its own store. The unique
 * key is what makes concurrent duplicates lose at commit time instead of writing twice. Records
 * are kept (createdAt is indexed so a retention sweep can be added without a migration).
 */
export const idempotencyCollectionSpec: CollectionSpec = {
  name: IDEMPOTENCY_COLLECTION,
  unique: [['key']],
  indexes: [['createdAt']],
};

/** What the caller supplies; id, version and createdAt are filled in here. */
export interface IdempotencyFields {
  tenantId: string;
  key: string;
  operation: string;
  /** sha256 of the canonical request, see fingerprint.ts. */
  fingerprint: string;
  /** What the first call answered; a replay answers exactly this. */
  result: unknown;
  deduped: boolean;
  requestId: string;
  /**
   * The credential that made the write (token id, or a portal session's public id); '' for
   * system writes; absent on records written before it was kept. A replay is answered to this
   * credential only (keyed-write.ts).
   */
  tokenId?: string;
}

export interface IdempotencyRecord extends Doc, IdempotencyFields {
  createdAt: string;
}

export const findIdempotencyRecord = (
  store: DocumentStore,
  tenantId: string,
  key: string,
): Promise<IdempotencyRecord | null> =>
  store.findOne<IdempotencyRecord>(IDEMPOTENCY_COLLECTION, tenantId, { key });

export function insertIdempotencyRecord(fields: IdempotencyFields): WriteOp {
  const doc: IdempotencyRecord = { ...fields, id: newId('idem'), version: 1, createdAt: nowIso() };
  return { op: 'insert', collection: IDEMPOTENCY_COLLECTION, doc };
}
