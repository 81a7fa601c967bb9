// The capture service's outbox events, committed with the change they describe. `run.queued` is
// also the reconstruction workers' job: they consume it from the event log.
import type { ServiceEventType } from '@fieldops/contracts';
import { outboxEmitter } from '@fieldops/kit/events';

export const CAPTURE_SERVICE = 'capture';

/** Event types this service emits, as the catalogue (contracts/src/webhook-event-types.ts) lists them. */
export type CaptureEventType = ServiceEventType<'capture'>;

export const emitCaptureEvent = outboxEmitter<CaptureEventType>(CAPTURE_SERVICE);
