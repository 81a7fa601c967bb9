// The exports service's outbox events: each export and saved report write emits one in the same
// commit. export.* are in the webhook catalogue (contracts/); report.saved is not, as a saved report
// is private to the member who saved it.
import type { ServiceEventType } from '@fieldops/contracts';
import type { RequestContext } from '@fieldops/kit';
import { domainEvent } from '@fieldops/kit/events';
import type { WriteOp } from '@fieldops/kit/store';

export const EXPORTS_SERVICE = 'exports';

/** Event types this service emits, as the catalogue (contracts/src/webhook-event-types.ts) lists them. */
export type ExportsEventType = ServiceEventType<'exports'>;

export function emitExportsEvent(
  ctx: RequestContext,
  type: ExportsEventType,
  resource: { kind: string; id: string },
  data: Record<string, unknown>,
): WriteOp {
  return { op: 'emit', event: domainEvent(EXPORTS_SERVICE, ctx, type, resource, data) };
}
