// Outbox events of the planning side of the projects service (same topic as the project events,
// so the audit ledger records every planning write too).
import type { RequestContext } from '@fieldops/kit';
import { domainEvent } from '@fieldops/kit/events';
import type { WriteOp } from '@fieldops/kit/store';
import { PROJECTS_SERVICE } from './events.js';

export type PlanningEventType =
  'permit.override_set' | 'planning_settings.updated' | 'task.created' | 'site_preparation.reported';

export function emitPlanningEvent(
  ctx: RequestContext,
  type: PlanningEventType,
  resource: { kind: string; id: string },
  data: Record<string, unknown>,
): WriteOp {
  return { op: 'emit', event: domainEvent(PROJECTS_SERVICE, ctx, type, resource, data) };
}
