// The measurements service's outbox events, committed with the change they describe.
import type { RequestContext } from '@fieldops/kit';
import { domainEvent } from '@fieldops/kit/events';
import type { WriteOp } from '@fieldops/kit/store';

export const MEASUREMENTS_SERVICE = 'measurements';

export type MeasurementsEventType = 'quantities.recorded' | 'takeoff.recorded';

export function emitMeasurementsEvent(
  ctx: RequestContext,
  type: MeasurementsEventType,
  resource: { kind: string; id: string },
  data: Record<string, unknown>,
): WriteOp {
  return { op: 'emit', event: domainEvent(MEASUREMENTS_SERVICE, ctx, type, resource, data) };
}
