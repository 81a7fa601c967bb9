// A finalized capture with one PLY frame and its queued run, written straight into capture's store
// as finalize would leave them: what the worker and run-lease tests start from.
import { blobKey, type BlobKey } from '@fieldops/kit/blobs';
import { newId, nowIso } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import { CAPTURE_SESSIONS, RUNS } from '../../src/collections.ts';
import type { RunDoc } from '../../src/run-model/run.model.ts';
import type { CaptureSessionDoc } from '../../src/session-model/session.model.ts';

export const PLY = Buffer.from(
  'ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nend_header\n0 0 0\n1 0 0\n0 1 2\n',
);

export interface SeededRun {
  runId: string;
  captureId: string;
  /** Where the frame is expected in the blob store (the caller stores it when an engine reads it). */
  frameKey: BlobKey;
}

/**
 * Mode surface: three points make a scene but span no area to measure volumes on
 * (test/process.http.test.ts covers volumes end to end). `session: false` leaves the capture out,
 * as if it had been deleted after the run was queued.
 */
export async function seedQueuedRun(
  store: DocumentStore,
  tenantId: string,
  options: { session?: boolean } = {},
): Promise<SeededRun> {
  const captureId = newId('cap');
  const frameKey = blobKey(tenantId, 'captures', captureId, 'frames', '00001.ply');
  const run = queuedRunDoc(tenantId, captureId);
  const session = finalizedSession(tenantId, captureId, frameKey);
  await store.commit(tenantId, [
    ...(options.session === false
      ? []
      : [{ op: 'insert' as const, collection: CAPTURE_SESSIONS, doc: session }]),
    { op: 'insert', collection: RUNS, doc: run },
  ]);
  return { runId: run.id, captureId, frameKey };
}

function queuedRunDoc(tenantId: string, captureId: string): RunDoc {
  const now = nowIso();
  return {
    id: newId('run'),
    tenantId,
    version: 1,
    projectId: 'prj_1',
    captureId,
    status: 'queued',
    inFlightCaptureId: captureId,
    trigger: 'finalize',
    mode: 'surface',
    engine: 'builtin',
    quality: 'standard',
    attempts: 0,
    maxAttempts: 3,
    progress: 0,
    phase: 'queued',
    createdAt: now,
    updatedAt: now,
    tenantCurrency: 'USD',
    tenantDefaultVertical: 'survey',
  };
}

function finalizedSession(tenantId: string, captureId: string, key: BlobKey): CaptureSessionDoc {
  const now = nowIso();
  return {
    id: captureId,
    tenantId,
    version: 1,
    projectId: 'prj_1',
    status: 'finalized',
    source: 'scanner',
    device: '',
    capturedBy: '',
    mode: 'surface',
    engine: 'builtin',
    quality: 'standard',
    frames: [
      {
        index: 0,
        name: 'scan.ply',
        contentType: 'application/x-ply',
        declaredSize: PLY.length,
        key,
        storedSize: PLY.length,
      },
    ],
    declaredBytes: PLY.length,
    storedBytes: PLY.length,
    createdAt: now,
    updatedAt: now,
  };
}
