// The projects service's outbox events. Every write emits its event in the same commit as the
// change (runWrite commits plan.ops together), so subscribers and the audit ledger never miss one.
import type { ServiceEventType } from '@fieldops/contracts';
import type { RequestContext } from '@fieldops/kit';
import { domainEvent } from '@fieldops/kit/events';
import type { WriteOp } from '@fieldops/kit/store';

export const PROJECTS_SERVICE = 'projects';

/** Event types this service emits, as the catalogue (contracts/src/webhook-event-types.ts) lists them. */
export type ProjectsEventType = ServiceEventType<'projects'>;

export function emitProjectsEvent(
  ctx: RequestContext,
  type: ProjectsEventType,
  resource: { kind: string; id: string },
  data: Record<string, unknown>,
): WriteOp {
  return { op: 'emit', event: domainEvent(PROJECTS_SERVICE, ctx, type, resource, data) };
}
