// The capture service's collections in its own document store. Every query the service makes is
// listed here as an index, so the MongoDB adapter can build them and nothing scans a tenant.
import type { CollectionSpec, DocumentStore } from '@fieldops/kit/store';
import { idempotencyCollectionSpec } from '@fieldops/kit/write';

export const CAPTURE_SESSIONS = 'capture_sessions';
export const RUNS = 'runs';
/** Metered consumption: stored upload bytes, cancellation fees, compute runs. */
export const USAGE = 'usage';
/** One document per project (id = project id): the persisted processing mode and engine. */
export const PROCESSING_SETTINGS = 'processing_settings';
export const SCENES = 'scenes';
/** Files a scene is made of, each fetched through a short-lived link. */
export const ARTIFACTS = 'artifacts';
/** Drawn work on a project (designs/): drafts, and sealed ones that never change. */
export const DESIGNS = 'designs';
/**
 * In the platform namespace: one document per run a worker may be working on, so a worker that
 * starts can find runs whose owner died (leases live on the run, in its tenant).
 */
export const ACTIVE_RUNS = 'active_runs';

export const CAPTURE_COLLECTIONS: readonly CollectionSpec[] = [
  {
    name: CAPTURE_SESSIONS,
    indexes: [
      ['projectId', 'status', 'finalizedAt'],
      ['projectId', 'createdAt'],
    ],
  },
  {
    name: RUNS,
    // inFlightCaptureId is set only while a run is queued or running: one in flight per capture.
    unique: [['inFlightCaptureId']],
    indexes: [
      ['projectId', 'createdAt'],
      ['captureId', 'createdAt'],
    ],
  },
  // One meter entry per subject and kind: a duplicate finalize can never meter twice.
  { name: USAGE, unique: [['subjectId', 'kind']], indexes: [['kind', 'createdAt']] },
  { name: PROCESSING_SETTINGS },
  { name: SCENES, indexes: [['projectId', 'createdAt'], ['runId']] },
  { name: ARTIFACTS, indexes: [['sceneId']] },
  { name: DESIGNS, indexes: [['projectId', 'createdAt']] },
  { name: ACTIVE_RUNS, indexes: [['queuedAt']] },
  idempotencyCollectionSpec,
];

export async function defineCaptureCollections(store: DocumentStore): Promise<void> {
  for (const spec of CAPTURE_COLLECTIONS) await store.define(spec);
}
