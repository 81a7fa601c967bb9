// The measurements service's outbox events, committed with the change they describe.
import type { RequestContext } from '@fieldops/kit/context';
import { domainEvent } from '@fieldops/kit/events/envelope';
import type { WriteOp } from '@fieldops/kit/store/port';

export const MEASUREMENTS_SERVICE = 'measurements';

export type MeasurementsEventType = 'quantities.recorded' | 'takeoff.recorded' | 'regions.stated';

export function emitMeasurementsEvent(
  ctx: RequestContext,
  type: MeasurementsEventType,
  resource: { kind: string; id: string },
  data: Record<string, unknown>,
): WriteOp {
  return { op: 'emit', event: domainEvent(MEASUREMENTS_SERVICE, ctx, type, resource, data) };
}
