// Turning events into deliveries: one per event × subscription however often the event is
// handled (a redelivery after a crash), only for subscriptions that want it, never for events
// from before a subscription existed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { DomainEvent } from '@fieldops/kit/events';
import { openEmbeddedStore, PLATFORM_TENANT, type DocumentStore } from '@fieldops/kit/store';
import { pagesBothWays, testContext } from '@fieldops/kit/testing';
import { webhooks } from '@fieldops/proto';
import { DELIVERIES, DISPATCH_QUEUE, SUBSCRIPTIONS, defineWebhookCollections } from '../src/collections.ts';
import type { DeliveryDoc } from '../src/deliveries/delivery.model.ts';
import { listDeliveries } from '../src/deliveries/deliveries.service.ts';
import { deliverEvent } from '../src/dispatch/event-consumer.ts';
import { listSubscriptions } from '../src/subscriptions/subscriptions.service.ts';
import type { SubscriptionDoc } from '../src/subscriptions/subscription.model.ts';

const TENANT = 'ten_hooks';
let dir: string;
let store: DocumentStore;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'webhooks-test-'));
  store = await openEmbeddedStore({ dir, fsync: 'never' });
  await defineWebhookCollections(store);
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function addSubscription(id: string, extra: Partial<SubscriptionDoc> = {}): Promise<void> {
  const doc: SubscriptionDoc = {
    id,
    tenantId: TENANT,
    version: 1,
    url: 'https://example.com/hook',
    eventTypes: [],
    status: 'enabled',
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...extra,
  };
  await store.commit(TENANT, [{ op: 'insert', collection: SUBSCRIPTIONS, doc }]);
}

const event = (type: string, occurredAt = '2026-02-01T00:00:00.000Z'): DomainEvent => ({
  id: `evt_${type}_${occurredAt}`,
  type,
  tenantId: TENANT,
  occurredAt,
  resource: { kind: 'lead', id: 'lead_1' },
  context: {
    requestId: 'req_1',
    operation: 'createLead',
    principal: { kind: 'token', tokenId: 'tok_1', role: 'Manager', memberId: '' },
    idempotencyKey: '',
    agent: { runId: '', task: '', model: '', confirmedBy: '' },
  },
  data: { lead: { id: 'lead_1', name: 'Ada' } },
});

const allDeliveries = () => store.find<DeliveryDoc>(DELIVERIES, TENANT, {});
const queued = () => store.find(DISPATCH_QUEUE, PLATFORM_TENANT, {});

describe('deliverEvent', () => {
  it('creates each delivery exactly once when the same event is handled again', async () => {
    await addSubscription('whk_all');
    await addSubscription('whk_leads', { eventTypes: ['lead.created'] });
    const lead = event('lead.created');
    expect(await deliverEvent(store, lead)).toBe(2);
    expect(await deliverEvent(store, lead)).toBe(2);
    const made = await allDeliveries();
    expect(made.map((doc) => doc.subscriptionId).sort()).toEqual(['whk_all', 'whk_leads']);
    expect(made.every((doc) => doc.status === 'pending' && doc.eventId === lead.id)).toBe(true);
    expect(await queued()).toHaveLength(2);
    expect(JSON.parse(made[0]?.payload ?? '{}')).toEqual({
      type: 'lead.created',
      timestamp: lead.occurredAt,
      data: {
        lead: { id: 'lead_1', name: 'Ada' },
        resource: { kind: 'lead', id: 'lead_1' },
        tenantId: TENANT,
      },
    });
  });

  it('skips disabled subscriptions, other event types and events from before a subscription', async () => {
    await addSubscription('whk_off', { status: 'disabled', disabledReason: 'manual' });
    await addSubscription('whk_deals', { eventTypes: ['deal.created'] });
    await addSubscription('whk_new', { createdAt: '2026-03-01T00:00:00.000Z' });
    expect(await deliverEvent(store, event('lead.created'))).toBe(0);
    expect(await allDeliveries()).toEqual([]);
  });

  it('holds a subscription to its recorded grant; one stored before grants (none) keeps the whole tenant', async () => {
    const heldTo = (readKinds: string[], expiresAt?: string) => ({
      credentialId: 'tok_held',
      credentialKind: 'token' as const,
      readKinds,
      projectIds: null,
      ...(expiresAt ? { expiresAt } : {}),
    });
    await addSubscription('whk_legacy');
    await addSubscription('whk_reads_leads', { heldTo: heldTo(['lead']) });
    await addSubscription('whk_settings_only', { heldTo: heldTo(['settings']) });
    await addSubscription('whk_expired', { heldTo: heldTo(['lead'], '2026-01-15T00:00:00.000Z') });
    expect(await deliverEvent(store, event('lead.created'))).toBe(2);
    const made = (await allDeliveries()).map((doc) => doc.subscriptionId).sort();
    expect(made).toEqual(['whk_legacy', 'whk_reads_leads']);
  });

  it('ignores event types that are not in the catalogue (identity events, internal ones)', async () => {
    await addSubscription('whk_all');
    expect(await deliverEvent(store, event('token.issued'))).toBe(0);
    expect(await deliverEvent(store, event('usage.metered'))).toBe(0);
    expect(await deliverEvent(store, event('report.saved'))).toBe(0);
    expect(await allDeliveries()).toEqual([]);
  });
});

describe('the subscription and delivery lists', () => {
  it('answer itemsAsJson with the JSON of exactly what items decode to, page by page', async () => {
    for (const id of ['whk_a', 'whk_b', 'whk_c']) await addSubscription(id, { description: id });
    for (const n of [1, 2, 3])
      await deliverEvent(store, event('lead.created', `2026-02-0${n}T00:00:00.000Z`));
    const ctx = testContext({ tenantId: TENANT });
    const subscriptions = await pagesBothWays(
      (page) => listSubscriptions({ store, allowPrivate: false, maxSubscriptions: 25 }, { page }, ctx),
      webhooks.Subscription,
    );
    const deliveries = await pagesBothWays(
      (page) => listDeliveries({ store }, { subscriptionId: 'whk_a', page }, ctx),
      webhooks.Delivery,
    );
    expect([subscriptions.length, deliveries.length]).toEqual([2, 2]);
    for (const page of [...subscriptions, ...deliveries]) expect(page.json).toEqual(page.items);
  });
});
