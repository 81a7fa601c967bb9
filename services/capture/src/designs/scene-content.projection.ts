// Tells projects when a project gained a deliverable. A reconstruction run commits its scene with a
// `scene.ready` event (runs/run-lease.ts); this consumer, in the capture service process, follows
// those events and reports the project's absolute content counts through
// ProjectService.ReportProjectContent. The worker never dials projects: reporting here keeps the
// workers' gRPC peers to capture and measurements, and the event log retries a report projects
// refused or could not take (delivery is at least once; absolute counts make a redelivery a no-op).
import {
  topicOf,
  followFromStart,
  type DomainEvent,
  type EventLog,
  type EventRecord,
  type Subscription,
} from '@fieldops/kit/events';
import { RUNS } from '../collections.ts';
import type { CaptureDeps } from '../deps.ts';
import { reportProjectContent } from './project-content.ts';
import { CAPTURE_SERVICE } from '../events.ts';
import type { RunDoc } from '../run-model/run.model.ts';
import { workerContext } from '../worker/worker-context.ts';

export const SCENE_CONTENT_GROUP = 'capture.project-content';

export async function startSceneContentProjection(
  log: EventLog,
  deps: Pick<CaptureDeps, 'store' | 'projects'>,
): Promise<Subscription> {
  // Scenes made before this group first ran must still reach their projects.
  return followFromStart(log, {
    group: SCENE_CONTENT_GROUP,
    topics: [topicOf(CAPTURE_SERVICE)],
    handle: (record) => reportSceneContent(deps, record),
  });
}

export async function reportSceneContent(
  deps: Pick<CaptureDeps, 'store' | 'projects'>,
  record: EventRecord,
): Promise<void> {
  const event = record.value as Partial<DomainEvent> | null;
  if (event?.type !== 'scene.ready' || typeof event.tenantId !== 'string') return;
  const runId = event.data?.['runId'];
  if (typeof runId !== 'string') return;
  // The run carries the tenant's settings a request context needs; it outlives its scene event.
  const run = await deps.store.get<RunDoc>(RUNS, event.tenantId, runId);
  if (!run) return;
  await reportProjectContent(deps, run.projectId, workerContext(run, 'reportProjectContent'));
}
