// The webhooks service re-checks the field limits the gateway states (contracts/src/field-limits):
// an over-long field sent straight to the service is refused with the HTTP API's error
// (field_too_long naming the field) and writes nothing. The table is built from the limits data.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { SCOPE_KINDS, WEBHOOK_FIELD_LIMITS } from '@fieldops/contracts';
import { openEmbeddedStore, type DocumentStore } from '@fieldops/kit/store';
import { testContext as ctx, outboxEvents, refusal, TENANT_A } from '@fieldops/kit/testing';
import { SUBSCRIPTIONS } from '../src/collections.ts';
import { createWebhookHandlers, defineWebhookCollections, type WebhookHandlers } from '../src/index.ts';

/** A token that reads every kind of every project: these tests are about field limits only. */
const WHOLE_TENANT_GRANT = {
  credentialId: 'tok_test',
  credentialKind: 'token',
  readKinds: [...SCOPE_KINDS],
  projectRestricted: false,
  projectIds: [],
  expiresAt: '',
};

const tooLong = (max: number) => 'x'.repeat(max + 1);
/** A URL of exactly `length` characters: the limit counts the whole URL. */
const urlOf = (length: number) => `https://hooks.example.com/${'p'.repeat(length - 26)}`;
const withField = (field: string, max: number) => (field === 'url' ? urlOf(max + 1) : tooLong(max));

let dir: string;
let store: DocumentStore;
let webhooks: WebhookHandlers;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'webhooks-limits-'));
  store = await openEmbeddedStore({ dir, fsync: 'never' });
  await defineWebhookCollections(store);
  webhooks = createWebhookHandlers(store, { allowPrivate: true, maxSubscriptions: 25 });
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function expectTooLong(write: Promise<unknown>, field: string, max: number) {
  const error = await refusal(write);
  expect(error.code).toBe('field_too_long');
  expect(error.extras).toMatchObject({ field, maxLength: max });
  expect(await outboxEvents(store)).toEqual([]);
}

describe('webhook subscription field limits, checked by the service itself', () => {
  it.each(Object.entries(WEBHOOK_FIELD_LIMITS))(
    'createSubscription refuses a %s over %i',
    async (field, max) => {
      const request = { url: urlOf(40), eventTypes: [], [field]: withField(field, max) };
      await expectTooLong(webhooks.createSubscription(request, ctx()), field, max);
      expect(await store.count(SUBSCRIPTIONS, TENANT_A, {})).toBe(0);
    },
  );

  it.each(Object.entries(WEBHOOK_FIELD_LIMITS))(
    'updateSubscription refuses a %s over %i',
    async (field, max) => {
      const { subscription } = await webhooks.createSubscription(
        { url: urlOf(40), eventTypes: [], grant: WHOLE_TENANT_GRANT },
        ctx(),
      );
      const before = await outboxEvents(store);
      const request = {
        id: subscription?.id ?? '',
        ifMatch: subscription?.etag ?? '',
        eventTypes: [],
        eventTypesSet: false,
        [field]: withField(field, max),
      };
      const error = await refusal(webhooks.updateSubscription(request, ctx()));
      expect(error).toMatchObject({ code: 'field_too_long', extras: { field, maxLength: max } });
      expect(await outboxEvents(store)).toEqual(before);
    },
  );
});
