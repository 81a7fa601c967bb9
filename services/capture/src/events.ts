// The capture service's outbox events, committed with the change they describe. `run.queued` is
// also the reconstruction workers' job: they consume it from the event log.
import type { RequestContext } from '@fieldops/kit';
import { domainEvent } from '@fieldops/kit/events';
import type { WriteOp } from '@fieldops/kit/store';

export const CAPTURE_SERVICE = 'capture';

export type CaptureEventType =
  | 'capture.presigned'
  | 'capture.finalized'
  | 'capture.aborted'
  | 'run.queued'
  | 'run.started'
  | 'run.succeeded'
  | 'run.failed'
  | 'scene.ready'
  | 'usage.metered'
  | 'design.created'
  | 'design.sealed';

export function emitCaptureEvent(
  ctx: RequestContext,
  type: CaptureEventType,
  resource: { kind: string; id: string },
  data: Record<string, unknown>,
): WriteOp {
  return { op: 'emit', event: domainEvent(CAPTURE_SERVICE, ctx, type, resource, data) };
}
