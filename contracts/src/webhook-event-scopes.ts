// Which scopes a credential needs to receive each subscribable event: the one source of truth for
// "which event types a scope set may read" (docs/webhooks.md, "Held to the token"). The gateway
// refuses a subscription naming a type its token may not read, and the dispatcher filters every
// delivery by the same table against what the subscribing credential could read.
//
// An event needs read on the kind it is about and on every kind whose records its payload
// carries in full (lead.converted carries the customer and the deal it opened; payment.received
// carries the invoice, which is a deal record). The payload is not cut: a type is delivered whole
// or not at all, as the export archive is (docs/decisions.md, "Cross-cutting reads").
import { PROJECT_SCOPE_KINDS, type ScopeKind } from './scope-kinds.ts';
import type { WebhookEventTypeName } from './webhook-event-types.ts';

type ReadKinds = readonly [ScopeKind, ...ScopeKind[]];

const DEAL: ReadKinds = ['deal'];
const JOB: ReadKinds = ['job'];
const DELIVERABLE: ReadKinds = ['deliverable'];
const CAPTURE: ReadKinds = ['capture'];
const SETTINGS: ReadKinds = ['settings'];

/** Event type → the kinds a credential must read to receive it (the first is the one it is about). */
export const EVENT_READ_KINDS: Readonly<Record<WebhookEventTypeName, ReadKinds>> = {
  'lead.created': ['lead'],
  'lead.updated': ['lead'],
  'lead.message_logged': ['lead'],
  'lead.converted': ['lead', 'customer', 'deal'],
  'lead.qualified': ['lead'],
  'customer.created': ['customer'],
  'customer.updated': ['customer'],
  'deal.created': DEAL,
  'deal.stage_changed': DEAL,
  'deal.value_changed': DEAL,
  'proposal.created': DEAL,
  'proposal.updated': DEAL,
  'proposal.sent': DEAL,
  'proposal.viewed': DEAL,
  'proposal.signed': DEAL,
  'proposal.declined': DEAL,
  'proposal.expired': DEAL,
  'proposal.withdrawn': DEAL,
  'invoice.created': DEAL,
  'invoice.updated': DEAL,
  'invoice.issued': DEAL,
  'invoice.voided': DEAL,
  'invoice.paid': DEAL,
  'payment.received': DEAL,
  'booking.requested': JOB,
  'booking.confirmed': JOB,
  'booking.declined': JOB,
  'booking_policy.recorded': SETTINGS,
  'project.created': JOB,
  'project.updated': JOB,
  'project.status_changed': JOB,
  'project.content_reported': JOB,
  'site.created': JOB,
  'site.updated': JOB,
  'record.created': DELIVERABLE,
  'record.updated': DELIVERABLE,
  'record.status_changed': DELIVERABLE,
  'record.voided': DELIVERABLE,
  'record.unvoided': DELIVERABLE,
  'permit.override_set': DELIVERABLE,
  'planning_settings.updated': SETTINGS,
  'task.created': JOB,
  'site_preparation.reported': JOB,
  'capture.presigned': CAPTURE,
  'capture.finalized': CAPTURE,
  'capture.aborted': CAPTURE,
  'run.queued': CAPTURE,
  'run.started': CAPTURE,
  'run.succeeded': CAPTURE,
  'run.failed': CAPTURE,
  'scene.ready': DELIVERABLE,
  'design.created': DELIVERABLE,
  'design.sealed': DELIVERABLE,
  'quantities.recorded': DELIVERABLE,
  'takeoff.recorded': DELIVERABLE,
  'regions.stated': DELIVERABLE,
  'export.queued': SETTINGS,
  'export.ready': SETTINGS,
  'export.failed': SETTINGS,
};

/** The kinds a credential reading `readable` lacks to receive `type`; empty when it may. */
export const missingReadKinds = (type: WebhookEventTypeName, readable: readonly string[]): ScopeKind[] =>
  EVENT_READ_KINDS[type].filter((kind) => !readable.includes(kind));

/**
 * Whether a credential may receive one event: it reads every kind the type needs and, when it is
 * restricted to projects (`projectIds` not null), the event is about one of them; an event about
 * no project reaches a restricted credential only when none of its kinds belongs to projects.
 */
export function mayReceiveEvent(
  grant: { readKinds: readonly string[]; projectIds: readonly string[] | null },
  type: WebhookEventTypeName,
  projectId: string | null,
): boolean {
  if (missingReadKinds(type, grant.readKinds).length > 0) return false;
  if (grant.projectIds === null) return true;
  if (projectId !== null) return grant.projectIds.includes(projectId);
  return !EVENT_READ_KINDS[type].some((kind) => PROJECT_SCOPE_KINDS.includes(kind));
}
