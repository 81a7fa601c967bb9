// The packager's queue: one entry per export still to package, in the platform namespace so one
// packager finds work across tenants. A claim is a lease (leaseUntil) taken with a version check,
// so two packagers never work on one export, and a killed packager's claim lapses by itself.
import { nowIso } from '@fieldops/kit';
import { PLATFORM_TENANT, StoreConflict, type Doc, type DocumentStore } from '@fieldops/kit/store';
import { EXPORT_QUEUE } from '../collections.ts';

export interface QueueEntry extends Doc {
  /** The tenant the export belongs to (the entry itself sits in the platform namespace). */
  exportTenantId: string;
  queuedAt: string;
  /** ISO time until which a packager holds the entry; '' when nobody does. */
  leaseUntil: string;
  /** ISO time since which the export has been waiting out a dependency that is away; absent otherwise. */
  waitingSince?: string;
}

/** Adds the export to the queue unless it is there already. */
export async function enqueueExport(store: DocumentStore, tenantId: string, exportId: string): Promise<void> {
  if (await store.get(EXPORT_QUEUE, PLATFORM_TENANT, exportId)) return;
  const entry: QueueEntry = {
    id: exportId,
    tenantId: PLATFORM_TENANT,
    version: 1,
    exportTenantId: tenantId,
    queuedAt: nowIso(),
    leaseUntil: '',
  };
  try {
    await store.commit(PLATFORM_TENANT, [{ op: 'insert', collection: EXPORT_QUEUE, doc: entry }]);
  } catch (error) {
    // Another request queued it between the read and the insert: it is queued, which was the point.
    if (!(error instanceof StoreConflict)) throw error;
  }
}

/** Entries no live packager holds, oldest first. */
export async function claimableEntries(store: DocumentStore, limit: number): Promise<QueueEntry[]> {
  const now = nowIso();
  return store.find<QueueEntry>(
    EXPORT_QUEUE,
    PLATFORM_TENANT,
    { $or: [{ leaseUntil: '' }, { leaseUntil: { $lt: now } }] },
    { sort: { field: 'queuedAt', direction: 'asc' }, limit },
  );
}

/** Takes (or extends) the lease; null when another packager took the entry first. */
export async function leaseEntry(
  store: DocumentStore,
  entry: QueueEntry,
  leaseMs: number,
): Promise<QueueEntry | null> {
  const leased: QueueEntry = {
    ...entry,
    version: entry.version + 1,
    leaseUntil: new Date(Date.now() + leaseMs).toISOString(),
  };
  try {
    await store.commit(PLATFORM_TENANT, [
      { op: 'replace', collection: EXPORT_QUEUE, doc: leased, expectedVersion: entry.version },
    ]);
    return leased;
  } catch (error) {
    if (error instanceof StoreConflict) return null;
    throw error;
  }
}

/**
 * Sets the entry aside until `retryMs` from now, recording since when it has been waiting: the
 * next packager to find it claimable tries again. A conflict means another packager holds it now.
 */
export async function holdEntry(
  store: DocumentStore,
  entry: QueueEntry,
  retryMs: number,
  waitingSince: string,
): Promise<void> {
  const held: QueueEntry = {
    ...entry,
    version: entry.version + 1,
    leaseUntil: new Date(Date.now() + retryMs).toISOString(),
    waitingSince,
  };
  try {
    await store.commit(PLATFORM_TENANT, [
      { op: 'replace', collection: EXPORT_QUEUE, doc: held, expectedVersion: entry.version },
    ]);
  } catch (error) {
    if (!(error instanceof StoreConflict)) throw error;
  }
}

export async function dequeueExport(store: DocumentStore, exportId: string): Promise<void> {
  try {
    await store.commit(PLATFORM_TENANT, [{ op: 'delete', collection: EXPORT_QUEUE, id: exportId }]);
  } catch (error) {
    if (!(error instanceof StoreConflict)) throw error;
  }
}
