// What a subscription is held to (docs/webhooks.md, "Held to the token"): the gateway sends the
// caller's grant (what it reads, its project restriction, its expiry) with every subscription
// write, and refuses event types the caller may not read, with the spec's 403 code: out_of_scope
// when the token's narrowing removed the read, role_denied when its role lacks it.
import { EVENT_READ_KINDS, isWebhookEventType } from '@fieldops/contracts';
import { AppError } from '@fieldops/kit';
import type { webhooks } from '@fieldops/proto';
import { authorize } from '../identity/authorize.ts';
import type { Caller } from '../identity/model.ts';
import { grants } from '../identity/permissions.ts';
import { KINDS } from '../identity/scopes.ts';

export function grantOf(caller: Caller | null): webhooks.SubscriptionGrant | undefined {
  if (!caller) return undefined;
  return {
    credentialId: caller.tokenId,
    credentialKind: caller.kind,
    readKinds: KINDS.filter((kind) => grants(caller.effective, kind, 'read')),
    projectRestricted: caller.projectIds !== null,
    projectIds: caller.projectIds ?? [],
    expiresAt: caller.kind === 'token' ? (caller.expiresAt ?? '') : '',
  };
}

/** 403 for the first event type the caller may not read, naming the type and the scope missing. */
export function assertReadableEventTypes(
  caller: Caller | null,
  eventTypes: readonly string[] | undefined,
): void {
  if (!caller || !eventTypes) return;
  for (const type of eventTypes) {
    if (!isWebhookEventType(type)) continue;
    for (const kind of EVENT_READ_KINDS[type]) {
      const decision = authorize(caller, { action: 'read', kind });
      if (decision.allowed) continue;
      const why =
        decision.code === 'out_of_scope'
          ? 'this token was narrowed without read on'
          : `role ${caller.role.name} does not grant read on`;
      throw new AppError(
        decision.code === 'out_of_scope' ? 'out_of_scope' : 'role_denied',
        `eventTypes names ${type}, whose deliveries carry ${kind} records, and ${why} ${kind}; leave ${type} out or use a token that reads ${kind}.`,
        { required: decision.required, field: 'eventTypes' },
      );
    }
  }
}
