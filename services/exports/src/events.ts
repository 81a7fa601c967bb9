// The exports service's outbox events: each export and saved report write emits one in the same
// commit. export.* are in the webhook catalogue (contracts/); report.saved is not, as a saved report
// is private to the member who saved it.
import type { ServiceEventType } from '@fieldops/contracts';
import { outboxEmitter } from '@fieldops/kit/events';

export const EXPORTS_SERVICE = 'exports';

/** Event types this service emits, as the catalogue (contracts/src/webhook-event-types.ts) lists them. */
export type ExportsEventType = ServiceEventType<'exports'>;

export const emitExportsEvent = outboxEmitter<ExportsEventType>(EXPORTS_SERVICE);
