// Outbox events of the planning side of the projects service (same topic as the project events,
// so the audit ledger records every planning write too).
import type { ServiceEventType } from '@fieldops/contracts';
import type { RequestContext } from '@fieldops/kit';
import { domainEvent } from '@fieldops/kit/events';
import type { WriteOp } from '@fieldops/kit/store';
import { PROJECTS_SERVICE } from './events.js';

/** Event types this service emits, as the catalogue (contracts/src/webhook-event-types.ts) lists them. */
export type PlanningEventType = ServiceEventType<'projects'>;

export function emitPlanningEvent(
  ctx: RequestContext,
  type: PlanningEventType,
  resource: { kind: string; id: string },
  data: Record<string, unknown>,
): WriteOp {
  return { op: 'emit', event: domainEvent(PROJECTS_SERVICE, ctx, type, resource, data) };
}
