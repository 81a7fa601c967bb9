// Outbox events of the planning side of the projects service (same topic as the project events,
// so the audit ledger records every planning write too).
import type { ServiceEventType } from '@fieldops/contracts';
import { outboxEmitter } from '@fieldops/kit/events';
import { PROJECTS_SERVICE } from './events.ts';

/** Event types this service emits, as the catalogue (contracts/src/webhook-event-types.ts) lists them. */
export type PlanningEventType = ServiceEventType<'projects'>;

export const emitPlanningEvent = outboxEmitter<PlanningEventType>(PROJECTS_SERVICE);
