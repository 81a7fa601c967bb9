// A webhook subscription as stored, and as the API shows it (never with its secret).
import { etagOf } from '@fieldops/kit/domain';
import type { Doc } from '@fieldops/kit/store';
import type { webhooks } from '@fieldops/proto';
import { secretHint } from './signing-secret.js';

export const SUBSCRIPTION_STATUSES = ['enabled', 'disabled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** gone: the endpoint answered 410; failing: a delivery failed for the whole schedule; manual: PATCH. */
export type DisabledReason = 'gone' | 'failing' | 'manual';

/** After a rotation the previous secret also signs deliveries for this long (Standard Webhooks). */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export interface SubscriptionDoc extends Doc {
  url: string;
  description?: string;
  /** Empty: every event type in the catalogue. */
  eventTypes: string[];
  status: SubscriptionStatus;
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
  };
}

/** The signing secrets in force at `now`: the current one, then the previous one during its overlap. */
export function signingSecrets(doc: SubscriptionDoc, now: number): string[] {
  const previous =
    doc.previousSecret && doc.previousSecretExpiresAt && Date.parse(doc.previousSecretExpiresAt) > now
      ? [doc.previousSecret]
      : [];
  return [doc.secret, ...previous];
}

/** Whether an event of this type, at this time, is for this subscription. */
export function wants(doc: SubscriptionDoc, eventType: string, occurredAt: string): boolean {
  if (doc.status !== 'enabled') return false;
  // Events from before the subscription existed are not its business, even if consumed late.
  if (occurredAt < doc.createdAt) return false;
  return doc.eventTypes.length === 0 || doc.eventTypes.includes(eventType);
}
