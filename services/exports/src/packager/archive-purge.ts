// Archives are kept for the retention period and no longer: once an export's expiresAt has passed,
// the packager deletes its archive from the blob store (the export record stays, without a
// download link; exports.service.ts stops offering one at expiresAt). A purge entry per ready
// export sits in the platform namespace, so one packager finds what is due across every tenant.
// Scheduling is idempotent and deleting a deleted blob is a no-op, so a packager that dies between
// the steps leaves nothing that the next pass does not finish.
import { EXPORT_STATUS_MACHINE } from '@fieldops/contracts';
import type { BlobKey, BlobStore } from '@fieldops/kit/blobs';
import { nowIso } from '@fieldops/kit';
import { PLATFORM_TENANT, StoreConflict, type Doc, type DocumentStore } from '@fieldops/kit/store';
import { EXPORT_PURGES } from '../collections.ts';
import type { ExportDoc } from '../exports/export.model.ts';

export interface PurgeEntry extends Doc {
  exportTenantId: string;
  archiveKey: string;
  /** The export's expiresAt: the archive is deleted at the first packager pass after it. */
  purgeAt: string;
}

/** Records that a ready export's archive is to be deleted at its expiry (once, however often called). */
export async function schedulePurge(store: DocumentStore, doc: ExportDoc): Promise<void> {
  if (doc.status !== EXPORT_STATUS_MACHINE.destination('finish') || !doc.archiveKey || !doc.expiresAt) return;
  if (await store.get(EXPORT_PURGES, PLATFORM_TENANT, doc.id)) return;
  const entry: PurgeEntry = {
    id: doc.id,
    tenantId: PLATFORM_TENANT,
    version: 1,
    exportTenantId: doc.tenantId,
    archiveKey: doc.archiveKey,
    purgeAt: doc.expiresAt,
  };
  try {
    await store.commit(PLATFORM_TENANT, [{ op: 'insert', collection: EXPORT_PURGES, doc: entry }]);
  } catch (error) {
    if (!(error instanceof StoreConflict)) throw error; // scheduled by another pass meanwhile
  }
}

/** Deletes the archives whose expiry has passed; the number deleted (0 when none was due). */
export async function purgeExpiredArchives(
  store: DocumentStore,
  blobs: BlobStore,
  limit = 10,
): Promise<number> {
  const due = await store.find<PurgeEntry>(
    EXPORT_PURGES,
    PLATFORM_TENANT,
    { purgeAt: { $lte: nowIso() } },
    { sort: { field: 'purgeAt', direction: 'asc' }, limit },
  );
  for (const entry of due) {
    await blobs.delete(entry.archiveKey as BlobKey);
    try {
      await store.commit(PLATFORM_TENANT, [
        { op: 'delete', collection: EXPORT_PURGES, id: entry.id, expectedVersion: entry.version },
      ]);
    } catch (error) {
      if (!(error instanceof StoreConflict)) throw error; // another packager purged it too
    }
  }
  return due.length;
}
