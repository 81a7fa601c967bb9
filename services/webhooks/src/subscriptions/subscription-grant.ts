// A subscription is held to what the credential that created it (or last re-aimed it) may read:
// the gateway sends that credential's grant with the write, and it is recorded on the
// subscription (HeldTo). Event types the grant cannot read are refused here too, so a direct
// call to the service meets the same rule as the HTTP API (whose gateway check names the scope
// and tells a narrowed token from a role that lacks it).
import { isWebhookEventType, missingReadKinds } from '@fieldops/contracts';
import { AppError } from '@fieldops/kit';
import type { webhooks } from '@fieldops/proto';
import type { HeldTo } from './subscription.model.ts';

export function heldToOf(grant: webhooks.SubscriptionGrant | undefined): HeldTo {
  if (!grant?.credentialId) {
    throw new AppError(
      'field_required',
      'grant is required: a subscription is held to what the credential that makes it may read.',
      { field: 'grant' },
    );
  }
  return {
    credentialId: grant.credentialId,
    credentialKind: grant.credentialKind === 'session' ? 'session' : 'token',
    readKinds: [...grant.readKinds],
    projectIds: grant.projectRestricted ? [...grant.projectIds] : null,
    ...(grant.expiresAt ? { expiresAt: grant.expiresAt } : {}),
  };
}

/** Refuses an event type the credential may not read, naming the type and the scope missing. */
export function checkReadable(eventTypes: readonly string[], held: HeldTo): void {
  for (const type of eventTypes) {
    if (!isWebhookEventType(type)) continue;
    const missing = missingReadKinds(type, held.readKinds);
    const [kind] = missing;
    if (kind) {
      throw new AppError(
        'out_of_scope',
        `eventTypes names ${type}, which needs read on ${missing.join(', ')}, and the credential making this subscription does not read ${kind}; leave ${type} out or use a token that reads it.`,
        { required: { action: 'read', kind }, field: 'eventTypes' },
      );
    }
  }
}
