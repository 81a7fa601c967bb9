// Webhooks (ENDPOINTS rows 79–86, plus rotating a subscription's secret): subscriptions, their
// delivery log with manual retry, and the event-type catalogue. Served by webhooks.WebhookService.
// How deliveries are signed and retried: docs/webhooks.md.
// The schemas and helpers the endpoint files of this folder share; each endpoint is declared in
// the file named after its path.
import { ID_REF_MAX, WEBHOOK_FIELD_LIMITS, WEBHOOK_EVENT_TYPE_NAMES } from '@fieldops/contracts';
import { z } from 'zod';

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

export const webhookSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string(),
    eventTypes: z.array(z.string()).describe('Empty: every event type.'),
    status: z.enum(['enabled', 'disabled']),
    disabledReason: z
      .string()
      .describe(
        'gone (the endpoint answered 410), failing (failed for the whole retry schedule), manual, or credential_revoked (the token it is held to was revoked).',
      ),
    disabledAt: z.string(),
    secretHint: z.string().describe('whsec_… and the last four characters of the signing secret.'),
    previousSecretExpiresAt: z.string().describe('After a rotation: until then the old secret also signs.'),
    throttledUntil: z.string().describe('The endpoint answered 429: nothing is sent before this time.'),
    createdAt: z.string(),
    updatedAt: z.string(),
    etag: z.string(),
    opId: z.string(),
    heldBy: z
      .string()
      .describe(
        'The token (or session) whose reads deliveries are held to; empty for a subscription made before this was recorded, held to the whole tenant until re-aimed.',
      ),
  })
  .meta({ id: 'Webhook' });

export const secretField = z
  .string()
  .describe('The signing secret (Standard Webhooks whsec_ format). Shown in this answer only, never again.');

export const deliverySchema = z
  .object({
    id: z.string(),
    subscriptionId: z.string(),
    eventId: z.string().describe('Also the webhook-id header: the same on every attempt.'),
    eventType: z.string(),
    status: z.enum(['pending', 'succeeded', 'failed']),
    attemptCount: z.number().int(),
    nextAttemptAt: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    attempts: z.array(
      z.object({
        at: z.string(),
        statusCode: z.number().int().describe('0 when no HTTP answer came.'),
        error: z.string(),
        durationMs: z.number().int(),
        trigger: z.enum(['scheduled', 'manual']),
      }),
    ),
  })
  .meta({ id: 'WebhookDelivery' });

export const webhookParams = z.strictObject({ id: z.string().min(1).max(ID_REF_MAX) });
export const deliveryParams = z.strictObject({
  id: z.string().min(1).max(ID_REF_MAX),
  deliveryId: z.string().min(1).max(ID_REF_MAX),
});

export const SETTINGS_READ = { action: 'read', kind: 'settings' } as const;
export const SETTINGS_CREATE = { action: 'create', kind: 'settings' } as const;
export const SETTINGS_UPDATE = { action: 'update', kind: 'settings' } as const;
