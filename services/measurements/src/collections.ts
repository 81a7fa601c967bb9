// The measurements service's collections in its own document store. Every query it makes is an
// index here, so the MongoDB adapter builds them and nothing scans a tenant.
import type { CollectionSpec, DocumentStore } from '@fieldops/kit/store';
import { idempotencyCollectionSpec } from '@fieldops/kit/write';

/** One document per reconstruction run: the quantities the engine measured on it. */
export const QUANTITY_SNAPSHOTS = 'quantity_snapshots';
/** One document per takeoff revision. */
export const TAKEOFFS = 'takeoffs';

export const MEASUREMENT_COLLECTIONS: readonly CollectionSpec[] = [
  // A run is measured once: a retried worker finds its snapshot by runId instead of adding one.
  { name: QUANTITY_SNAPSHOTS, unique: [['runId']], indexes: [['projectId', 'measuredAt']] },
  // Revisions number 1, 2, 3 … per project; the unique key settles two saves racing for a number.
  { name: TAKEOFFS, unique: [['projectId', 'revision']], indexes: [['projectId', 'revision']] },
  idempotencyCollectionSpec,
];

export async function defineMeasurementCollections(store: DocumentStore): Promise<void> {
  for (const spec of MEASUREMENT_COLLECTIONS) await store.define(spec);
}
