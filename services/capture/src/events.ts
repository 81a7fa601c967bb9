// The capture service's outbox events, committed with the change they describe. `run.queued` is
// also the reconstruction workers' job: they consume it from the event log.
import type { ServiceEventType } from '@fieldops/contracts';
import type { RequestContext } from '@fieldops/kit';
import { domainEvent } from '@fieldops/kit/events';
import type { WriteOp } from '@fieldops/kit/store';

export const CAPTURE_SERVICE = 'capture';

/** Event types this service emits, as the catalogue (contracts/src/webhook-event-types.ts) lists them. */
export type CaptureEventType = ServiceEventType<'capture'>;

export function emitCaptureEvent(
  ctx: RequestContext,
  type: CaptureEventType,
  resource: { kind: string; id: string },
  data: Record<string, unknown>,
): WriteOp {
  return { op: 'emit', event: domainEvent(CAPTURE_SERVICE, ctx, type, resource, data) };
}
