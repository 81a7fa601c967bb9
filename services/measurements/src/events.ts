// The measurements service's outbox events, committed with the change they describe.
import type { ServiceEventType } from '@fieldops/contracts';
import type { RequestContext } from '@fieldops/kit';
import { domainEvent } from '@fieldops/kit/events';
import type { WriteOp } from '@fieldops/kit/store';

export const MEASUREMENTS_SERVICE = 'measurements';

/** Event types this service emits, as the catalogue (contracts/src/webhook-event-types.ts) lists them. */
export type MeasurementsEventType = ServiceEventType<'measurements'>;

export function emitMeasurementsEvent(
  ctx: RequestContext,
  type: MeasurementsEventType,
  resource: { kind: string; id: string },
  data: Record<string, unknown>,
): WriteOp {
  return { op: 'emit', event: domainEvent(MEASUREMENTS_SERVICE, ctx, type, resource, data) };
}
