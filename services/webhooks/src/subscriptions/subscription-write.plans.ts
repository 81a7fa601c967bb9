// Plans of the subscription writes (create, amend, delete, rotate the secret), applied through
// runWrite so each is exactly-once by key and atomic with its outbox event.
import { WEBHOOK_FIELD_LIMITS, WEBHOOK_SUBSCRIPTION_STATUS_MACHINE } from '@fieldops/contracts';
import {
  diffFields,
  setFields,
  assertIfMatch,
  createEffect,
  eventEffect,
  updateEffect,
  checkLengths,
  getOrNotFound,
} from '@fieldops/kit/domain';
import { AppError, type RequestContext, newId, nowIso } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import type { WritePlan } from '@fieldops/kit/write';
import type { webhooks } from '@fieldops/proto';
import { SUBSCRIPTIONS } from '../collections.ts';
import { emitWebhooksEvent } from '../events.ts';
import { checkEventTypes } from './event-type-filter.ts';
import { newSigningSecret } from './signing-secret.ts';
import { checkReadable, heldToOf } from './subscription-grant.ts';
import { ROTATION_OVERLAP_MS, toSubscriptionView, type SubscriptionDoc } from './subscription.model.ts';
import { checkTargetUrl } from './target-url.ts';

/** The answer of a subscription write: the subscription, and the secret only on create and rotate. */
export interface SubscriptionResult {
  subscription: webhooks.Subscription;
  secret: string;
}

export interface PlanDeps {
  store: DocumentStore;
  allowPrivate: boolean;
  /** Subscriptions a tenant may hold (FIELDOPS_WEBHOOK_MAX_SUBSCRIPTIONS). */
  maxSubscriptions: number;
}

const CHANGE_FIELDS = ['url', 'description', 'eventTypes', 'status', 'heldBy'] as const;

/** What events and the rehearsal say about a subscription (never its secret). */
const publicFields = (doc: SubscriptionDoc) => ({
  url: doc.url,
  description: doc.description,
  eventTypes: doc.eventTypes.join(',') || '(every type)',
  status: doc.status,
  heldBy: doc.heldTo?.credentialId ?? '(the whole tenant)',
});

const resource = (id: string) => ({ kind: 'webhook', id });

async function load(deps: PlanDeps, tenantId: string, id: string): Promise<SubscriptionDoc> {
  const doc = await getOrNotFound<SubscriptionDoc>(
    deps.store,
    SUBSCRIPTIONS,
    tenantId,
    id,
    'webhook subscription',
  );
  return doc;
}

/**
 * The cap on subscriptions per tenant, so one tenant cannot multiply the dispatcher's work. It is
 * checked against a count before the insert: creates racing each other may pass it together.
 */
async function checkRoomFor(deps: PlanDeps, tenantId: string): Promise<void> {
  const held = await deps.store.count(SUBSCRIPTIONS, tenantId, {});
  if (held >= deps.maxSubscriptions) {
    throw new AppError(
      'conflict',
      `This tenant already has ${held} webhook subscriptions, and the cap is ${deps.maxSubscriptions} per tenant; delete one (DELETE /webhooks/:id) or ask the operator to raise the cap.`,
      { limit: deps.maxSubscriptions },
    );
  }
}

export async function planCreateSubscription(
  deps: PlanDeps,
  tenantId: string,
  req: webhooks.CreateSubscriptionRequest,
  ctx: RequestContext,
): Promise<WritePlan<SubscriptionResult>> {
  checkLengths(WEBHOOK_FIELD_LIMITS, req);
  const heldTo = heldToOf(req.grant);
  const eventTypes = checkEventTypes(req.eventTypes);
  checkReadable(eventTypes, heldTo);
  await checkRoomFor(deps, tenantId);
  const url = await checkTargetUrl(req.url, deps);
  const now = nowIso();
  const doc: SubscriptionDoc = {
    id: newId('whk'),
    tenantId,
    version: 1,
    url,
    ...(req.description?.trim() ? { description: req.description.trim() } : {}),
    eventTypes,
    status: WEBHOOK_SUBSCRIPTION_STATUS_MACHINE.initial,
    heldTo,
    secret: newSigningSecret(),
    createdAt: now,
    updatedAt: now,
    ...(ctx.idempotencyKey || req.opId ? { opId: ctx.idempotencyKey || req.opId } : {}),
  };
  const changes = setFields(publicFields(doc), CHANGE_FIELDS);
  return {
    ops: [
      { op: 'insert', collection: SUBSCRIPTIONS, doc },
      emitWebhooksEvent(ctx, 'webhook.created', resource(doc.id), { webhook: toSubscriptionView(doc) }),
    ],
    result: { subscription: toSubscriptionView(doc), secret: doc.secret },
    created: true,
    rehearsal: {
      willDo: `Subscribe ${url} to ${doc.eventTypes.length || 'every'} event type(s) and show its signing secret once.`,
      effects: [createEffect('webhook', doc.id, changes), eventEffect('webhook.created', doc.id)],
    },
  };
}

/**
 * A write that re-aims the subscription (a new URL, new event types, enabling it) holds it to the
 * caller's credential from then on, and the event types it keeps must be readable by it. A write
 * that only describes or disables it changes nobody's reach, so any settings writer may make it.
 */
const reaims = (req: webhooks.UpdateSubscriptionRequest): boolean =>
  req.url !== undefined || req.eventTypesSet || req.enabled === true;

function amended(
  doc: SubscriptionDoc,
  req: webhooks.UpdateSubscriptionRequest,
  url: string,
  now: string,
): SubscriptionDoc {
  const next: SubscriptionDoc = { ...doc, url, updatedAt: now, version: doc.version + 1 };
  if (req.description !== undefined) next.description = req.description.trim();
  if (req.eventTypesSet) next.eventTypes = checkEventTypes(req.eventTypes);
  if (reaims(req)) {
    next.heldTo = heldToOf(req.grant);
    checkReadable(next.eventTypes, next.heldTo);
  }
  if (req.enabled === false && WEBHOOK_SUBSCRIPTION_STATUS_MACHINE.canFire(doc.status, 'disable')) {
    Object.assign(next, {
      status: WEBHOOK_SUBSCRIPTION_STATUS_MACHINE.destination('disable'),
      disabledReason: 'manual',
      disabledAt: now,
    });
  }
  if (req.enabled === true && WEBHOOK_SUBSCRIPTION_STATUS_MACHINE.canFire(doc.status, 'enable')) {
    // Enabling again is a fresh start: no failure streak, no throttle carried over.
    next.status = WEBHOOK_SUBSCRIPTION_STATUS_MACHINE.destination('enable');
    for (const field of ['disabledReason', 'disabledAt', 'failingSince', 'throttledUntil'] as const) {
      delete next[field];
    }
  }
  return next;
}

export async function planUpdateSubscription(
  deps: PlanDeps,
  tenantId: string,
  req: webhooks.UpdateSubscriptionRequest,
  ctx: RequestContext,
): Promise<WritePlan<SubscriptionResult>> {
  checkLengths(WEBHOOK_FIELD_LIMITS, req);
  const doc = await load(deps, tenantId, req.id);
  assertIfMatch(req.ifMatch, doc, toSubscriptionView(doc));
  const url = req.url === undefined ? doc.url : await checkTargetUrl(req.url, deps);
  const next = amended(doc, req, url, nowIso());
  const changes = diffFields(publicFields(doc), publicFields(next), CHANGE_FIELDS);
  const result = { subscription: toSubscriptionView(next), secret: '' };
  if (changes.length === 0) {
    return {
      ops: [],
      result: { subscription: toSubscriptionView(doc), secret: '' },
      created: false,
      rehearsal: { willDo: 'Nothing: the subscription already says this.', effects: [] },
    };
  }
  return {
    ops: [
      { op: 'replace', collection: SUBSCRIPTIONS, doc: next, expectedVersion: doc.version },
      emitWebhooksEvent(ctx, 'webhook.updated', resource(doc.id), { changes }),
    ],
    result,
    created: false,
    rehearsal: {
      willDo: `Amend webhook subscription ${doc.id}: ${changes.map((change) => change.field).join(', ')}.`,
      effects: [updateEffect('webhook', doc.id, changes), eventEffect('webhook.updated', doc.id)],
    },
  };
}

export async function planDeleteSubscription(
  deps: PlanDeps,
  tenantId: string,
  req: webhooks.DeleteSubscriptionRequest,
  ctx: RequestContext,
): Promise<WritePlan<SubscriptionResult>> {
  const doc = await load(deps, tenantId, req.id);
  return {
    ops: [
      { op: 'delete', collection: SUBSCRIPTIONS, id: doc.id, expectedVersion: doc.version },
      emitWebhooksEvent(ctx, 'webhook.deleted', resource(doc.id), { url: doc.url }),
    ],
    result: { subscription: toSubscriptionView(doc), secret: '' },
    created: false,
    rehearsal: {
      willDo: `Delete webhook subscription ${doc.id}; nothing more is delivered to ${doc.url}.`,
      effects: [{ action: 'delete', kind: 'webhook', id: doc.id, changes: [] }],
    },
  };
}

export async function planRotateSecret(
  deps: PlanDeps,
  tenantId: string,
  req: webhooks.RotateSecretRequest,
  ctx: RequestContext,
): Promise<WritePlan<SubscriptionResult>> {
  const doc = await load(deps, tenantId, req.id);
  const now = Date.now();
  const next: SubscriptionDoc = {
    ...doc,
    version: doc.version + 1,
    secret: newSigningSecret(),
    previousSecret: doc.secret,
    previousSecretExpiresAt: new Date(now + ROTATION_OVERLAP_MS).toISOString(),
    updatedAt: new Date(now).toISOString(),
  };
  return {
    ops: [
      { op: 'replace', collection: SUBSCRIPTIONS, doc: next, expectedVersion: doc.version },
      emitWebhooksEvent(ctx, 'webhook.secret_rotated', resource(doc.id), {
        previousSecretExpiresAt: next.previousSecretExpiresAt,
      }),
    ],
    result: { subscription: toSubscriptionView(next), secret: next.secret },
    created: false,
    rehearsal: {
      willDo: `Rotate the signing secret of ${doc.id}; the old one also signs deliveries for 24 hours.`,
      effects: [updateEffect('webhook', doc.id, [{ field: 'secret' }])],
    },
  };
}
