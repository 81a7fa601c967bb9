// Webhooks (ENDPOINTS rows 79–86, plus rotating a subscription's secret): subscriptions, their
// delivery log with manual retry, and the event-type catalogue. Served by webhooks.WebhookService.
// How deliveries are signed and retried: docs/webhooks.md.
// The schemas and helpers the endpoint files of this folder share; each endpoint is declared in
// the file named after its path.
import { ID_REF_MAX, WEBHOOK_FIELD_LIMITS, WEBHOOK_EVENT_TYPE_NAMES } from '@fieldops/contracts';
import { z } from 'zod';
import { deliverySchema, webhookSchema } from './webhooks.gen.ts';

export const eventTypeName = z.enum(WEBHOOK_EVENT_TYPE_NAMES as [string, ...string[]]);

export const webhookFields = {
  url: z
    .string()
    .trim()
    .min(1)
    .max(WEBHOOK_FIELD_LIMITS.url)
    .describe('https (or http) URL deliveries are POSTed to.'),
  description: z.string().max(WEBHOOK_FIELD_LIMITS.description),
  eventTypes: z
    .array(eventTypeName)
    .min(1)
    .max(WEBHOOK_EVENT_TYPE_NAMES.length)
    .describe('Event types to deliver (GET /event-types). Omitted on create: every type.'),
};

// A subscription's and a delivery's shapes are derived from webhooks.proto (npm run gen).
export { deliverySchema, webhookSchema };

export const secretField = z
  .string()
  .describe('The signing secret (Standard Webhooks whsec_ format). Shown in this answer only, never again.');

export const webhookParams = z.strictObject({ id: z.string().min(1).max(ID_REF_MAX) });
export const deliveryParams = z.strictObject({
  id: z.string().min(1).max(ID_REF_MAX),
  deliveryId: z.string().min(1).max(ID_REF_MAX),
});

export const SETTINGS_READ = { action: 'read', kind: 'settings' } as const;
export const SETTINGS_CREATE = { action: 'create', kind: 'settings' } as const;
export const SETTINGS_UPDATE = { action: 'update', kind: 'settings' } as const;
