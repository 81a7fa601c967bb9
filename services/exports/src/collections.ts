// The exports service's collections in its own document store. Exports and saved reports live in
// the tenant's namespace; the packager's queue lives in the platform namespace because the
// packager looks for work across every tenant at once.
import type { CollectionSpec, DocumentStore } from '@fieldops/kit/store';
import { idempotencyCollectionSpec } from '@fieldops/kit/write';

export const EXPORTS = 'tenant_exports';
export const REPORTS = 'saved_reports';
/** One entry per export still to package (platform namespace); removed when it is ready or failed. */
export const EXPORT_QUEUE = 'export_queue';
/** One entry per ready archive still stored (platform namespace); removed once it is deleted. */
export const EXPORT_PURGES = 'export_purges';

export const EXPORT_COLLECTIONS: readonly CollectionSpec[] = [
  { name: EXPORTS, indexes: [['createdAt']] },
  { name: REPORTS, indexes: [['createdAt'], ['ownerMemberId', 'createdAt']] },
  { name: EXPORT_QUEUE, indexes: [['queuedAt']] },
  { name: EXPORT_PURGES, indexes: [['purgeAt']] },
  idempotencyCollectionSpec,
];

export async function defineExportCollections(store: DocumentStore): Promise<void> {
  for (const spec of EXPORT_COLLECTIONS) await store.define(spec);
}
