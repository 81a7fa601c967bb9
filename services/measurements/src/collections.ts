// The measurements service's collections in its own document store. Every query it makes is an
// index here, so the MongoDB adapter builds them and nothing scans a tenant.
import type { CollectionSpec, DocumentStore } from '@fieldops/kit/store';
import { idempotencyCollectionSpec } from '@fieldops/kit/write';

/** One document per reconstruction run: the quantities the engine measured on it. */
export const QUANTITY_SNAPSHOTS = 'quantity_snapshots';
/** One document per project: its newest stated regions (regions/region-set.model.ts). */
export const REGION_SETS = 'region_sets';
/** One document per stated version of a project's regions, kept as stated. */
export const REGION_VERSIONS = 'region_versions';
/** One document per takeoff revision. */
export const TAKEOFFS = 'takeoffs';

export const MEASUREMENT_COLLECTIONS: readonly CollectionSpec[] = [
  // A run is measured once: a retried worker finds its snapshot by runId instead of adding one.
  // ... and once per region version: stated regions measure the run's stored cloud again.
  {
    name: QUANTITY_SNAPSHOTS,
    unique: [['runId', 'regionVersion']],
    indexes: [['projectId', 'measuredAt']],
  },
  { name: REGION_SETS, unique: [['projectId']] },
  { name: REGION_VERSIONS, unique: [['projectId', 'regionVersion']] },
  // Revisions number 1, 2, 3 … per project; the unique key settles two saves racing for a number.
  { name: TAKEOFFS, unique: [['projectId', 'revision']], indexes: [['projectId', 'revision']] },
  idempotencyCollectionSpec,
];

export async function defineMeasurementCollections(store: DocumentStore): Promise<void> {
  for (const spec of MEASUREMENT_COLLECTIONS) await store.define(spec);
}
