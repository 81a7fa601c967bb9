// The delivery worker: finds due deliveries in the dispatch queue, claims each (a lease, so two
// dispatchers never send the same attempt at once), sends it signed and records the outcome on
// the delivery and its subscription in one commit. The delivery document is the truth: a crash
// after sending but before recording sends that attempt again with the same webhook-id (at least
// once; a receiver drops the repeat), and nothing is ever lost, because the queue entry comes due
// again when its lease runs out.
import { WEBHOOK_DELIVERY_STATUS_MACHINE, WEBHOOK_SUBSCRIPTION_STATUS_MACHINE } from '@fieldops/contracts';
import type { Logger } from '@fieldops/kit';
import { StoreConflict, type DocumentStore, type WriteOp } from '@fieldops/kit/store';
import { DELIVERIES, SUBSCRIPTIONS } from '../collections.ts';
import type { DeliveryDoc } from '../deliveries/delivery.model.ts';
import { decideOutcome, patched, type Outcome } from './delivery-outcome.ts';
import { heldToAllows, signingSecrets, type SubscriptionDoc } from '../subscriptions/subscription.model.ts';
import { busyByTenant, pickFairly, saturatedTenants } from './fair-slots.ts';
import type { DispatchSettings } from './dispatch-settings.ts';
import { dequeue, dueEntries, move, moveIfUnchanged, type QueueEntry } from '../deliveries/dispatch-queue.ts';
import { sendAttempt, type AttemptResult } from './send-attempt.ts';
import { signedHeaders } from './signature.ts';

/** A delivery still waiting for an attempt. */
const PENDING = WEBHOOK_DELIVERY_STATUS_MACHINE.initial;

export interface DeliveryWorker {
  /** Looks for due work now instead of at the next poll. */
  wake(): void;
  /** Finishes the attempts in hand, then stops. */
  stop(): Promise<void>;
}

const BATCH = 50;
const MAX_RECORD_TRIES = 5;
const iso = (ms: number): string => new Date(ms).toISOString();

export function startDeliveryWorker(options: {
  store: DocumentStore;
  settings: DispatchSettings;
  logger: Pick<Logger, 'warn' | 'error'>;
}): DeliveryWorker {
  const { store, settings, logger } = options;
  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Infinity;

  /** Looks again in `ms`, unless an earlier look is already planned. */
  const schedule = (ms: number) => {
    const at = Date.now() + ms;
    if (stopped || (timer && at >= timerAt)) return;
    clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(() => {
      timer = undefined;
      timerAt = Infinity;
      wake();
    }, ms);
  };

  /** Attempts in progress, by delivery id: a slow endpoint holds one slot, never the others. */
  const inFlight = new Map<string, Promise<void>>();
  /** The tenant of each attempt in progress, by delivery id: its share of the slots (fair-slots.ts). */
  const tenantOf = new Map<string, string>();

  /** Fills the free slots with due deliveries, fairly between tenants; each finished attempt looks again. */
  async function tick(): Promise<void> {
    do {
      again = false;
      if (settings.concurrency - inFlight.size <= 0) return;
      const busy = busyByTenant(tenantOf.values());
      const skip = saturatedTenants(busy, settings);
      const due = await dueEntries(store, iso(Date.now()), BATCH + inFlight.size, skip);
      const fresh = due.filter((entry) => !inFlight.has(entry.id));
      // Slots left empty stay empty until a wake: a new event, a finished attempt, the poll.
      for (const entry of pickFairly(fresh, busy, settings)) start(entry);
    } while (again && !stopped);
  }

  function start(entry: QueueEntry): void {
    const attempt = handleEntry(entry)
      .catch(report(entry))
      .finally(() => {
        inFlight.delete(entry.id);
        tenantOf.delete(entry.id);
        wake();
      });
    inFlight.set(entry.id, attempt);
    tenantOf.set(entry.id, entry.deliveryTenantId);
  }

  const report = (entry: QueueEntry) => (error: unknown) =>
    logger.error({ err: error, deliveryId: entry.id }, 'webhooks: delivery attempt could not be recorded');

  async function handleEntry(entry: QueueEntry): Promise<void> {
    if (stopped) return;
    let claimed: QueueEntry;
    try {
      claimed = await move(store, entry, iso(Date.now() + settings.leaseMs));
    } catch (error) {
      if (error instanceof StoreConflict) return; // another dispatcher took it
      throw error;
    }
    await attemptDelivery(claimed);
  }

  async function attemptDelivery(entry: QueueEntry): Promise<void> {
    const tenantId = entry.deliveryTenantId;
    const delivery = await store.get<DeliveryDoc>(DELIVERIES, tenantId, entry.id);
    if (!delivery || delivery.status !== PENDING) return dequeue(store, entry);
    const now = Date.now();
    if (delivery.nextAttemptAt && Date.parse(delivery.nextAttemptAt) > now) {
      return moveIfUnchanged(store, entry, delivery.nextAttemptAt);
    }
    const subscription = await store.get<SubscriptionDoc>(SUBSCRIPTIONS, tenantId, delivery.subscriptionId);
    const refusal = whyNot(subscription, delivery, now);
    if (refusal || !subscription) {
      await giveUp(delivery, refusal ?? 'The subscription was deleted.');
      return dequeue(store, entry);
    }
    if (subscription.throttledUntil && Date.parse(subscription.throttledUntil) > now) {
      // The endpoint asked us to slow down (429): wait without spending an attempt.
      return moveIfUnchanged(store, entry, subscription.throttledUntil);
    }
    const result = await send(delivery, subscription);
    const outcome = await record(tenantId, delivery.id, result);
    if (outcome?.delivery.status === PENDING && outcome.delivery.nextAttemptAt) {
      await moveIfUnchanged(store, entry, outcome.delivery.nextAttemptAt);
      schedule(Math.max(0, Date.parse(outcome.delivery.nextAttemptAt) - Date.now()));
    } else {
      await dequeue(store, entry);
    }
  }

  /** Why this delivery may not be attempted now; null when it may. */
  function whyNot(subscription: SubscriptionDoc | null, delivery: DeliveryDoc, now: number): string | null {
    if (!subscription) return 'The subscription was deleted.';
    if (subscription.status !== WEBHOOK_SUBSCRIPTION_STATUS_MACHINE.destination('enable')) {
      return subscription.disabledReason === 'credential_revoked'
        ? 'The token the subscription is held to was revoked.'
        : 'The endpoint is disabled.';
    }
    // The credential may have expired, or the subscription been re-aimed by a narrower one, since.
    if (!heldToAllows(subscription, delivery.eventType, delivery.projectId ?? null, now)) {
      return 'The credential the subscription is held to may not read this event (expired, or narrower).';
    }
    return null;
  }

  function send(delivery: DeliveryDoc, subscription: SubscriptionDoc): Promise<AttemptResult> {
    const at = new Date();
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'fieldops-webhooks/1',
      ...signedHeaders(signingSecrets(subscription, at.getTime()), delivery.eventId, at, delivery.payload),
    };
    return sendAttempt({
      url: subscription.url,
      headers,
      body: delivery.payload,
      timeoutMs: settings.timeoutMs,
      maxHeaderBytes: settings.maxHeaderBytes,
      allowPrivate: settings.allowPrivate,
    });
  }

  /** Applies the outcome to fresh copies (a PATCH or a manual retry may have landed meanwhile). */
  async function record(
    tenantId: string,
    deliveryId: string,
    result: AttemptResult,
  ): Promise<Outcome | null> {
    for (let tries = 0; tries < MAX_RECORD_TRIES; tries++) {
      const delivery = await store.get<DeliveryDoc>(DELIVERIES, tenantId, deliveryId);
      if (!delivery) return null;
      const subscription = await store.get<SubscriptionDoc>(SUBSCRIPTIONS, tenantId, delivery.subscriptionId);
      if (!subscription) return null;
      const outcome = decideOutcome(delivery, subscription, result, settings.schedule, Date.now());
      const ops: WriteOp[] = [
        {
          op: 'replace',
          collection: DELIVERIES,
          doc: { ...outcome.delivery, version: delivery.version + 1 },
          expectedVersion: delivery.version,
        },
      ];
      const nextSubscription = patched(subscription, outcome.subscription);
      if (JSON.stringify(nextSubscription) !== JSON.stringify(subscription)) {
        ops.push({
          op: 'replace',
          collection: SUBSCRIPTIONS,
          doc: { ...nextSubscription, version: subscription.version + 1 },
          expectedVersion: subscription.version,
        });
      }
      try {
        await store.commit(tenantId, ops);
        return outcome;
      } catch (error) {
        if (!(error instanceof StoreConflict)) throw error;
      }
    }
    logger.warn({ deliveryId }, 'webhooks: delivery kept changing; the attempt will be made again');
    return null;
  }

  async function giveUp(delivery: DeliveryDoc, reason: string): Promise<void> {
    const now = iso(Date.now());
    const { nextAttemptAt: _next, manual: _manual, ...rest } = delivery;
    const doc: DeliveryDoc = {
      ...rest,
      status: WEBHOOK_DELIVERY_STATUS_MACHINE.destination('fail'),
      version: delivery.version + 1,
      updatedAt: now,
    };
    doc.attempts = [
      ...delivery.attempts,
      { at: now, statusCode: 0, error: reason, durationMs: 0, trigger: 'scheduled' },
    ];
    try {
      await store.commit(delivery.tenantId, [
        { op: 'replace', collection: DELIVERIES, doc, expectedVersion: delivery.version },
      ]);
    } catch (error) {
      if (!(error instanceof StoreConflict)) throw error;
    }
  }

  function wake(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = tick()
      .catch((error: unknown) => logger.error({ err: error }, 'webhooks: dispatch pass failed'))
      .finally(() => {
        running = undefined;
        schedule(settings.pollMs);
      });
  }

  wake();
  return {
    wake,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
      await Promise.all(inFlight.values());
    },
  };
}
