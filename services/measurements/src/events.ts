// The measurements service's outbox events, committed with the change they describe.
import type { ServiceEventType } from '@fieldops/contracts';
import { outboxEmitter } from '@fieldops/kit/events';

export const MEASUREMENTS_SERVICE = 'measurements';

/** Event types this service emits, as the catalogue (contracts/src/webhook-event-types.ts) lists them. */
export type MeasurementsEventType = ServiceEventType<'measurements'>;

export const emitMeasurementsEvent = outboxEmitter<MeasurementsEventType>(MEASUREMENTS_SERVICE);
