// The dispatch queue: one entry per pending delivery, in the platform namespace, saying when the
// dispatcher should look at it. The delivery document stays the truth (status, next attempt);
// an entry is only a pointer, so a stale or duplicate entry is harmless: the dispatcher re-reads
// the delivery and drops the entry when there is nothing to do.
import { PLATFORM_TENANT, StoreConflict, type Doc, type DocumentStore } from '@fieldops/kit/store';
import { DISPATCH_QUEUE } from '../collections.ts';

export interface QueueEntry extends Doc {
  /** The tenant the delivery belongs to. */
  deliveryTenantId: string;
  dueAt: string;
}

/** Makes the delivery due at `dueAt` (an existing entry is moved). */
export async function enqueue(
  store: DocumentStore,
  deliveryTenantId: string,
  deliveryId: string,
  dueAt: string,
): Promise<void> {
  for (;;) {
    const entry = await store.get<QueueEntry>(DISPATCH_QUEUE, PLATFORM_TENANT, deliveryId);
    try {
      if (!entry) {
        const doc: QueueEntry = {
          id: deliveryId,
          tenantId: PLATFORM_TENANT,
          version: 1,
          deliveryTenantId,
          dueAt,
        };
        await store.commit(PLATFORM_TENANT, [{ op: 'insert', collection: DISPATCH_QUEUE, doc }]);
      } else {
        await move(store, entry, dueAt);
      }
      return;
    } catch (error) {
      // Someone else inserted or moved it in between: read again and retry.
      if (!(error instanceof StoreConflict)) throw error;
    }
  }
}

/** Entries due now, oldest first, leaving out the tenants named (those holding their share of slots). */
export const dueEntries = (
  store: DocumentStore,
  now: string,
  limit: number,
  skipTenants: readonly string[] = [],
): Promise<QueueEntry[]> =>
  store.find<QueueEntry>(
    DISPATCH_QUEUE,
    PLATFORM_TENANT,
    skipTenants.length > 0
      ? { dueAt: { $lte: now }, deliveryTenantId: { $nin: [...skipTenants] } }
      : { dueAt: { $lte: now } },
    {
      sort: { field: 'dueAt', direction: 'asc' },
      limit,
    },
  );

/** Moves an entry; throws StoreConflict when it changed since it was read. */
export async function move(store: DocumentStore, entry: QueueEntry, dueAt: string): Promise<QueueEntry> {
  const next = { ...entry, dueAt, version: entry.version + 1 };
  await store.commit(PLATFORM_TENANT, [
    { op: 'replace', collection: DISPATCH_QUEUE, doc: next, expectedVersion: entry.version },
  ]);
  return next;
}

/** Takes an entry out, unless it was moved since it was read (a manual retry re-armed it). */
export async function dequeue(store: DocumentStore, entry: QueueEntry): Promise<void> {
  try {
    await store.commit(PLATFORM_TENANT, [
      { op: 'delete', collection: DISPATCH_QUEUE, id: entry.id, expectedVersion: entry.version },
    ]);
  } catch (error) {
    if (!(error instanceof StoreConflict)) throw error;
  }
}

/** Moves an entry unless it was moved since it was read (a manual retry re-armed it: that wins). */
export async function moveIfUnchanged(store: DocumentStore, entry: QueueEntry, dueAt: string): Promise<void> {
  try {
    await move(store, entry, dueAt);
  } catch (error) {
    if (!(error instanceof StoreConflict)) throw error;
  }
}
