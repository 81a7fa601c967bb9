// The event-type catalogue, as data: every event each service emits, with what it means, and
// which of them a webhook subscription may filter on. GET /event-types serves the subscribable
// ones; subscriptions are validated against them; each service's event type (the argument of its
// emit function, services/<name>/src/*events.ts) is ServiceEventType<'<name>'>, derived from
// here, so a service cannot emit a type the catalogue lacks and the two cannot drift.
// The spec's four named events are lead.created ("lead captured"), scene.ready, proposal.signed
// and payment.received. Identity events of the gateway (tenant, member, role, token) are audit
// records only and are never sent to a subscriber (docs/decisions.md).

/** Every event a subscriber may receive, per emitting service: `<kind>.<what happened>` → summary. */
export const SUBSCRIBABLE_EVENTS = {
  crm: {
    'lead.created': 'A lead was captured.',
    'lead.updated': 'A lead was amended or moved to another status.',
    'lead.message_logged': 'An inbound message was logged on an open lead.',
    'lead.converted': 'A lead became a customer with an opening deal.',
    'lead.qualified': 'A persona was read from what a lead stated.',
    'customer.created': 'A customer was created.',
    'customer.updated': 'A customer was amended or changed stage.',
    'deal.created': 'A deal was opened.',
    'deal.stage_changed': 'A deal moved along the pipeline, was lost or reopened.',
    'deal.value_changed': "A deal's value changed.",
    'proposal.created': 'A proposal was drafted.',
    'proposal.updated': 'A draft proposal was amended.',
    'proposal.sent': 'A proposal was emailed to its recipient.',
    'proposal.viewed': 'The recipient opened a sent proposal.',
    'proposal.signed': 'The recipient signed a proposal.',
    'proposal.declined': 'The recipient declined a proposal.',
    'proposal.expired': 'A sent proposal expired unsigned.',
    'proposal.withdrawn': 'A sent proposal was withdrawn.',
    'invoice.created': 'A draft invoice was created.',
    'invoice.updated': 'A draft invoice was amended.',
    'invoice.issued': 'An invoice was issued with a live payment page.',
    'invoice.voided': 'An invoice was voided.',
    'invoice.paid': 'An invoice was paid in full.',
    'payment.received': 'A payment was recorded against an invoice.',
    'booking.requested': 'A booking was requested and holds its slot.',
    'booking.confirmed': 'A booking was confirmed.',
    'booking.declined': 'A booking was declined, with the reason the customer reads.',
    'booking_policy.recorded': 'The instant-book policy was recorded.',
  },
  projects: {
    'project.created': 'A project (job) was created with its site and deal.',
    'project.updated': 'A project was amended.',
    'project.status_changed': 'A project moved through its lifecycle.',
    'project.content_reported': 'Design or delivery content was reported on a project.',
    'site.created': 'A site was created.',
    'site.updated': 'A site was amended.',
    'record.created': 'A project record (punch, rfi, incident, daily log…) was filed.',
    'record.updated': 'A project record was amended.',
    'record.status_changed': 'A project record changed status.',
    'record.voided': 'A project record was retracted.',
    'record.unvoided': "A project record's retraction was taken back.",
    'permit.override_set': "A project's permit metadata override was set.",
    'planning_settings.updated': "The tenant's planning settings changed.",
    'task.created': 'An operational task was filed.',
    'site_preparation.reported': 'Preparation of a visit was reported.',
  },
  capture: {
    'capture.presigned': 'An upload session was opened (uploading).',
    'capture.finalized': 'A capture upload was finalized and metered.',
    'capture.aborted': 'A capture upload was aborted (failed or cancelled).',
    'run.queued': 'A reconstruction run was queued.',
    'run.started': 'A reconstruction run started.',
    'run.succeeded': 'A reconstruction run finished.',
    'run.failed': 'A reconstruction run failed.',
    'scene.ready': 'A reconstructed scene is ready to view and export.',
    'design.created': 'A draft design was recorded on a project.',
    'design.sealed': 'A design was sealed (binding, after confirmation); it never changes again.',
  },
  measurements: {
    'quantities.recorded': 'Measured quantities of a site snapshot were recorded.',
    'takeoff.recorded': 'A takeoff revision was recorded.',
    'regions.stated': "A new version of a project's measurement regions was stated.",
  },
  exports: {
    'export.queued': 'A tenant export was queued.',
    'export.ready': 'A tenant export is packaged and ready to download.',
    'export.failed': 'A tenant export failed; the error names the phase.',
  },
} as const;

/** Why the webhooks service's own events are never sent: they record subscription writes. */
const OWN_WRITE = 'a subscription write of the webhooks service itself: audit records only';

/** Emitted by a service but never sent to subscribers, per service: type → the reason. */
export const UNSUBSCRIBABLE_EVENTS = {
  capture: { 'usage.metered': 'internal metering, not a business event' },
  exports: { 'report.saved': 'a saved report is private to the member who saved it' },
  webhooks: {
    'webhook.created': OWN_WRITE,
    'webhook.updated': OWN_WRITE,
    'webhook.deleted': OWN_WRITE,
    'webhook.secret_rotated': OWN_WRITE,
    'webhook_delivery.retried': OWN_WRITE,
  },
} as const;

/** The spec's named events (lead captured, scene ready, proposal signed, payment received). */
export const NAMED_EVENT_TYPES = [
  'lead.created',
  'scene.ready',
  'proposal.signed',
  'payment.received',
] as const;

type Subscribable = typeof SUBSCRIBABLE_EVENTS;
type Unsubscribable = typeof UNSUBSCRIBABLE_EVENTS;
type KeysAt<R, S> = S extends keyof R ? keyof R[S] & string : never;

/** A service that emits events a subscriber may receive. */
export type SubscribableService = keyof Subscribable;

/** Every event type `service` emits: what its emit function accepts. */
export type ServiceEventType<S extends SubscribableService | keyof Unsubscribable> =
  KeysAt<Subscribable, S> | KeysAt<Unsubscribable, S>;

export type WebhookEventTypeName = {
  [S in SubscribableService]: keyof Subscribable[S] & string;
}[SubscribableService];

export interface WebhookEventType {
  /** `<kind>.<what happened>`: the `type` of the payload a subscriber receives. */
  type: WebhookEventTypeName;
  /** The service that emits it. */
  service: SubscribableService;
  /** One sentence a subscriber reads to decide whether to listen. */
  summary: string;
  /** One of the spec's named events (lead captured, scene ready, proposal signed, payment received). */
  named?: true;
}

const isNamed = (type: string): boolean => (NAMED_EVENT_TYPES as readonly string[]).includes(type);

/** The subscribable events as one list, in catalogue order (service by service). */
export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = Object.entries(SUBSCRIBABLE_EVENTS).flatMap(
  ([service, events]) =>
    Object.entries(events).map(([type, summary]) => ({
      type: type as WebhookEventTypeName,
      service: service as SubscribableService,
      summary,
      ...(isNamed(type) ? { named: true as const } : {}),
    })),
);

/** Emitted but never sent to subscribers, each with the reason. */
export const UNSUBSCRIBABLE_EVENT_TYPES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.values(UNSUBSCRIBABLE_EVENTS).flatMap((events) => Object.entries(events)),
);

export const WEBHOOK_EVENT_TYPE_NAMES: readonly WebhookEventTypeName[] = WEBHOOK_EVENT_TYPES.map(
  (entry) => entry.type,
);

export const isWebhookEventType = (value: string): value is WebhookEventTypeName =>
  (WEBHOOK_EVENT_TYPE_NAMES as readonly string[]).includes(value);
