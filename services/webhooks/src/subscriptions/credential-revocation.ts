// A revoked token's subscriptions stop delivering. The gateway emits `token.revoked` on its own
// topic, which the dispatcher already consumes; each enabled subscription held to that token is
// disabled (reason credential_revoked), so GET /webhooks shows why nothing arrives, and pending
// deliveries are given up at their next attempt (the worker sends only to enabled
// subscriptions). Disabled rather than skipped: a person sees it, and enabling it again through
// PATCH holds it to the token that enables it (docs/webhooks.md, "Held to the token").
import { WEBHOOK_SUBSCRIPTION_STATUS_MACHINE } from '@fieldops/contracts';
import type { DomainEvent } from '@fieldops/kit/events';
import { StoreConflict, type DocumentStore } from '@fieldops/kit/store';
import { SUBSCRIPTIONS } from '../collections.ts';
import type { SubscriptionDoc } from './subscription.model.ts';

/** The gateway's identity event this module follows. */
export const REVOKED_EVENT = 'token.revoked';

const MAX_TRIES = 5;

async function disableOne(store: DocumentStore, doc: SubscriptionDoc, at: string): Promise<boolean> {
  const next: SubscriptionDoc = {
    ...doc,
    status: WEBHOOK_SUBSCRIPTION_STATUS_MACHINE.destination('disable'),
    disabledReason: 'credential_revoked',
    disabledAt: at,
    updatedAt: at,
    version: doc.version + 1,
  };
  try {
    await store.commit(doc.tenantId, [
      { op: 'replace', collection: SUBSCRIPTIONS, doc: next, expectedVersion: doc.version },
    ]);
    return true;
  } catch (error) {
    if (error instanceof StoreConflict) return false;
    throw error;
  }
}

/** Disables every enabled subscription of the event's tenant held to the revoked token. */
export async function disableHeldTo(store: DocumentStore, event: DomainEvent): Promise<void> {
  const tokenId = event.resource.id;
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    const enabled = await store.find<SubscriptionDoc>(SUBSCRIPTIONS, event.tenantId, {
      status: WEBHOOK_SUBSCRIPTION_STATUS_MACHINE.destination('enable'),
    });
    const held = enabled.filter((doc) => doc.heldTo?.credentialId === tokenId);
    const done = await Promise.all(held.map((doc) => disableOne(store, doc, event.occurredAt)));
    // A delivery outcome or a PATCH raced one of them: read again and disable what is left.
    if (done.every(Boolean)) return;
  }
  throw new Error(`webhooks: subscriptions held to ${tokenId} kept changing; the event will be read again`);
}
