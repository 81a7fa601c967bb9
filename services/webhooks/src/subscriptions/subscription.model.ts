// A webhook subscription as stored, and as the API shows it (never with its secret).
import {
  WEBHOOK_SUBSCRIPTION_STATUS_MACHINE,
  isWebhookEventType,
  mayReceiveEvent,
  type WebhookSubscriptionStatus,
} from '@fieldops/contracts';
import { etagOf, type Complete } from '@fieldops/kit/domain';
import type { Doc } from '@fieldops/kit/store';
import type { webhooks } from '@fieldops/proto';
import { secretHint } from './signing-secret.ts';

export type SubscriptionStatus = WebhookSubscriptionStatus;

/**
 * gone: the endpoint answered 410; failing: a delivery failed for the whole schedule; manual:
 * PATCH; credential_revoked: the token it is held to was revoked.
 */
export type DisabledReason = 'gone' | 'failing' | 'manual' | 'credential_revoked';

/**
 * What the credential that created (or last re-aimed) the subscription may read, recorded at that
 * write: every delivery is held to it. Absent on subscriptions stored before it was recorded:
 * those are held to the whole tenant until amended (docs/webhooks.md, "Held to the token").
 */
export interface HeldTo {
  credentialId: string;
  credentialKind: 'token' | 'session';
  readKinds: string[];
  /** null: every project of the tenant. */
  projectIds: string[] | null;
  /** The token's expiry; nothing is delivered after it. */
  expiresAt?: string;
}

/** After a rotation the previous secret also signs deliveries for this long (Standard Webhooks). */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export interface SubscriptionDoc extends Doc {
  url: string;
  description?: string;
  /** Empty: every event type in the catalogue. */
  eventTypes: string[];
  status: SubscriptionStatus;
  heldTo?: HeldTo;
  disabledReason?: DisabledReason;
  disabledAt?: string;
  secret: string;
  previousSecret?: string;
  previousSecretExpiresAt?: string;
  /** Set by a 429: nothing is attempted before it. */
  throttledUntil?: string;
  /** The first failure since the last success; cleared by a success. */
  failingSince?: string;
  createdAt: string;
  updatedAt: string;
  opId?: string;
}

export function toSubscriptionView(doc: SubscriptionDoc): webhooks.Subscription {
  return {
    id: doc.id,
    url: doc.url,
    description: doc.description ?? '',
    eventTypes: doc.eventTypes,
    status: doc.status,
    disabledReason: doc.disabledReason ?? '',
    disabledAt: doc.disabledAt ?? '',
    secretHint: secretHint(doc.secret),
    previousSecretExpiresAt: doc.previousSecretExpiresAt ?? '',
    throttledUntil: doc.throttledUntil ?? '',
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    etag: etagOf(doc),
    opId: doc.opId ?? '',
    heldBy: doc.heldTo?.credentialId ?? '',
  } satisfies Complete<webhooks.Subscription>;
}

/** The signing secrets in force at `now`: the current one, then the previous one during its overlap. */
export function signingSecrets(doc: SubscriptionDoc, now: number): string[] {
  const previous =
    doc.previousSecret && doc.previousSecretExpiresAt && Date.parse(doc.previousSecretExpiresAt) > now
      ? [doc.previousSecret]
      : [];
  return [doc.secret, ...previous];
}

/** Whether the credential the subscription is held to may receive this event, now. */
export function heldToAllows(
  doc: SubscriptionDoc,
  eventType: string,
  projectId: string | null,
  now: number,
): boolean {
  const held = doc.heldTo;
  if (!held) return true;
  if (held.expiresAt && Date.parse(held.expiresAt) <= now) return false;
  return isWebhookEventType(eventType) && mayReceiveEvent(held, eventType, projectId);
}

/** The event as wants() reads it: its type, time and the project it is about (null: none). */
export interface EventFacts {
  type: string;
  occurredAt: string;
  projectId: string | null;
}

/** Whether an event is for this subscription: enabled, asked for, and readable by its credential. */
export function wants(doc: SubscriptionDoc, event: EventFacts, now = Date.now()): boolean {
  if (doc.status !== WEBHOOK_SUBSCRIPTION_STATUS_MACHINE.destination('enable')) return false;
  // Events from before the subscription existed are not its business, even if consumed late.
  if (event.occurredAt < doc.createdAt) return false;
  const asked = doc.eventTypes.length === 0 || doc.eventTypes.includes(event.type);
  return asked && heldToAllows(doc, event.type, event.projectId, now);
}
