// A delivery: one event sent to one subscription, with every attempt made. Its id is derived
// from the event and the subscription, so the dispatcher can create it any number of times
// (after a crash, a redelivered event) and it exists once.
import type { Complete } from '@fieldops/kit/domain';
import { createHash } from 'node:crypto';
import type { WebhookDeliveryStatus } from '@fieldops/contracts';
import type { Doc } from '@fieldops/kit/store';
import type { webhooks } from '@fieldops/proto';

export type DeliveryStatus = WebhookDeliveryStatus;

/** Attempts kept on a delivery (the oldest are dropped first). */
export const KEPT_ATTEMPTS = 50;

export interface AttemptRecord {
  at: string;
  statusCode: number;
  error?: string;
  durationMs: number;
  trigger: 'scheduled' | 'manual';
}

export interface DeliveryDoc extends Doc {
  subscriptionId: string;
  eventId: string;
  eventType: string;
  /** The project the event is about (null: none), so each attempt re-checks the credential's reach. */
  projectId?: string | null;
  /** The exact body sent on every attempt (signatures cover these bytes). */
  payload: string;
  status: DeliveryStatus;
  attemptCount: number;
  attempts: AttemptRecord[];
  /** When the next attempt is due; absent once the delivery succeeded or failed. */
  nextAttemptAt?: string;
  /** A manual retry is one attempt: if it fails the delivery is failed again, not rescheduled. */
  manual?: boolean;
  createdAt: string;
  updatedAt: string;
}

export const deliveryIdOf = (eventId: string, subscriptionId: string): string =>
  `dlv_${createHash('sha256').update(`${eventId}|${subscriptionId}`).digest('hex').slice(0, 32)}`;

export function toDeliveryView(doc: DeliveryDoc): webhooks.Delivery {
  return {
    id: doc.id,
    subscriptionId: doc.subscriptionId,
    eventId: doc.eventId,
    eventType: doc.eventType,
    status: doc.status,
    attemptCount: doc.attemptCount,
    nextAttemptAt: doc.nextAttemptAt ?? '',
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    attempts: doc.attempts.map((attempt) => ({ ...attempt, error: attempt.error ?? '' })),
  } satisfies Complete<webhooks.Delivery>;
}
