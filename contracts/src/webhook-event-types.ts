// The webhook event-type catalogue, as data: every event a subscription may filter on, which
// service emits it and what it means. GET /event-types serves this list; subscriptions are
// validated against it. It must equal the union of the event types the services declare
// (services/<name>/src/*events.ts), less the few in UNSUBSCRIBABLE_EVENT_TYPES (with reasons):
// services/webhooks/test/catalogue.test.ts reads those declarations and fails when the two drift.
// The spec's four named events are lead.created ("lead captured"), scene.ready, proposal.signed
// and payment.received. Identity events of the gateway (tenant, member, role, token) are audit
// records only and are never sent to a subscriber (docs/decisions.md).

export interface WebhookEventType {
  /** `<kind>.<what happened>`: the `type` of the payload a subscriber receives. */
  type: string;
  /** The service that emits it. */
  service: 'crm' | 'projects' | 'capture' | 'measurements' | 'exports';
  /** One sentence a subscriber reads to decide whether to listen. */
  summary: string;
  /** One of the spec's named events (lead captured, scene ready, proposal signed, payment received). */
  named?: true;
}

export const WEBHOOK_EVENT_TYPES = [
  { type: 'lead.created', service: 'crm', summary: 'A lead was captured.', named: true },
  { type: 'lead.updated', service: 'crm', summary: 'A lead was amended or moved to another status.' },
  { type: 'lead.message_logged', service: 'crm', summary: 'An inbound message was logged on an open lead.' },
  { type: 'lead.converted', service: 'crm', summary: 'A lead became a customer with an opening deal.' },
  { type: 'lead.qualified', service: 'crm', summary: 'A persona was read from what a lead stated.' },
  { type: 'customer.created', service: 'crm', summary: 'A customer was created.' },
  { type: 'customer.updated', service: 'crm', summary: 'A customer was amended or changed stage.' },
  { type: 'deal.created', service: 'crm', summary: 'A deal was opened.' },
  {
    type: 'deal.stage_changed',
    service: 'crm',
    summary: 'A deal moved along the pipeline, was lost or reopened.',
  },
  { type: 'deal.value_changed', service: 'crm', summary: "A deal's value changed." },
  { type: 'proposal.created', service: 'crm', summary: 'A proposal was drafted.' },
  { type: 'proposal.updated', service: 'crm', summary: 'A draft proposal was amended.' },
  { type: 'proposal.sent', service: 'crm', summary: 'A proposal was emailed to its recipient.' },
  { type: 'proposal.viewed', service: 'crm', summary: 'The recipient opened a sent proposal.' },
  { type: 'proposal.signed', service: 'crm', summary: 'The recipient signed a proposal.', named: true },
  { type: 'proposal.declined', service: 'crm', summary: 'The recipient declined a proposal.' },
  { type: 'proposal.expired', service: 'crm', summary: 'A sent proposal expired unsigned.' },
  { type: 'proposal.withdrawn', service: 'crm', summary: 'A sent proposal was withdrawn.' },
  { type: 'invoice.created', service: 'crm', summary: 'A draft invoice was created.' },
  { type: 'invoice.updated', service: 'crm', summary: 'A draft invoice was amended.' },
  { type: 'invoice.issued', service: 'crm', summary: 'An invoice was issued with a live payment page.' },
  { type: 'invoice.voided', service: 'crm', summary: 'An invoice was voided.' },
  { type: 'invoice.paid', service: 'crm', summary: 'An invoice was paid in full.' },
  {
    type: 'payment.received',
    service: 'crm',
    summary: 'A payment was recorded against an invoice.',
    named: true,
  },
  { type: 'booking.requested', service: 'crm', summary: 'A booking was requested and holds its slot.' },
  { type: 'booking.confirmed', service: 'crm', summary: 'A booking was confirmed.' },
  {
    type: 'booking.declined',
    service: 'crm',
    summary: 'A booking was declined, with the reason the customer reads.',
  },
  { type: 'booking_policy.recorded', service: 'crm', summary: 'The instant-book policy was recorded.' },
  {
    type: 'project.created',
    service: 'projects',
    summary: 'A project (job) was created with its site and deal.',
  },
  { type: 'project.updated', service: 'projects', summary: 'A project was amended.' },
  { type: 'project.status_changed', service: 'projects', summary: 'A project moved through its lifecycle.' },
  {
    type: 'project.content_reported',
    service: 'projects',
    summary: 'Design or delivery content was reported on a project.',
  },
  { type: 'site.created', service: 'projects', summary: 'A site was created.' },
  { type: 'site.updated', service: 'projects', summary: 'A site was amended.' },
  {
    type: 'record.created',
    service: 'projects',
    summary: 'A project record (punch, rfi, incident, daily log…) was filed.',
  },
  { type: 'record.updated', service: 'projects', summary: 'A project record was amended.' },
  { type: 'record.status_changed', service: 'projects', summary: 'A project record changed status.' },
  { type: 'record.voided', service: 'projects', summary: 'A project record was retracted.' },
  { type: 'record.unvoided', service: 'projects', summary: "A project record's retraction was taken back." },
  {
    type: 'permit.override_set',
    service: 'projects',
    summary: "A project's permit metadata override was set.",
  },
  {
    type: 'planning_settings.updated',
    service: 'projects',
    summary: "The tenant's planning settings changed.",
  },
  { type: 'task.created', service: 'projects', summary: 'An operational task was filed.' },
  { type: 'site_preparation.reported', service: 'projects', summary: 'Preparation of a visit was reported.' },
  { type: 'capture.presigned', service: 'capture', summary: 'An upload session was opened (uploading).' },
  { type: 'capture.finalized', service: 'capture', summary: 'A capture upload was finalized and metered.' },
  {
    type: 'capture.aborted',
    service: 'capture',
    summary: 'A capture upload was aborted (failed or cancelled).',
  },
  { type: 'run.queued', service: 'capture', summary: 'A reconstruction run was queued.' },
  { type: 'run.started', service: 'capture', summary: 'A reconstruction run started.' },
  { type: 'run.succeeded', service: 'capture', summary: 'A reconstruction run finished.' },
  { type: 'run.failed', service: 'capture', summary: 'A reconstruction run failed.' },
  {
    type: 'scene.ready',
    service: 'capture',
    summary: 'A reconstructed scene is ready to view and export.',
    named: true,
  },
  { type: 'design.created', service: 'capture', summary: 'A draft design was recorded on a project.' },
  {
    type: 'design.sealed',
    service: 'capture',
    summary: 'A design was sealed (binding, after confirmation); it never changes again.',
  },
  {
    type: 'quantities.recorded',
    service: 'measurements',
    summary: 'Measured quantities of a site snapshot were recorded.',
  },
  { type: 'takeoff.recorded', service: 'measurements', summary: 'A takeoff revision was recorded.' },
  {
    type: 'regions.stated',
    service: 'measurements',
    summary: "A new version of a project's measurement regions was stated.",
  },
  { type: 'export.queued', service: 'exports', summary: 'A tenant export was queued.' },
  { type: 'export.ready', service: 'exports', summary: 'A tenant export is packaged and ready to download.' },
  {
    type: 'export.failed',
    service: 'exports',
    summary: 'A tenant export failed; the error names the phase.',
  },
] as const satisfies readonly WebhookEventType[];

/** Declared by a service but never sent to subscribers, each with the reason. */
export const UNSUBSCRIBABLE_EVENT_TYPES: Readonly<Record<string, string>> = {
  'usage.metered': 'internal metering, not a business event',
  'report.saved': 'a saved report is private to the member who saved it',
};

export type WebhookEventTypeName = (typeof WEBHOOK_EVENT_TYPES)[number]['type'];

export const WEBHOOK_EVENT_TYPE_NAMES: readonly WebhookEventTypeName[] = WEBHOOK_EVENT_TYPES.map(
  (entry) => entry.type,
);

export const isWebhookEventType = (value: string): value is WebhookEventTypeName =>
  (WEBHOOK_EVENT_TYPE_NAMES as readonly string[]).includes(value);
