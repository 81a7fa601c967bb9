import { type RequestContext, newId } from '@fieldops/kit';
import type { Caller, Tenant } from './model.ts';

export type Actor =
  /** The platform operator, through the admin API. */
  | { kind: 'operator'; requestId?: string }
  /** The platform itself (first-start seeding). */
  | { kind: 'system'; requestId?: string }
  /** A member logged in to the portal. */
  | { kind: 'session'; caller: Caller; requestId?: string };

/** Stored in createdBy / revokedBy: `operator`, `system` or the member id. */
export function actorRef(actor: Actor): string {
  if (actor.kind !== 'session') return actor.kind;
  return actor.caller.member?.id ?? actor.caller.tokenId;
}

/** `tenant` is the tenant whose audit trail records the event (PLATFORM for tenant creation). */
export function contextFor(
  actor: Actor,
  tenant: Pick<Tenant, 'id' | 'currency' | 'defaultVertical'>,
  operation: string,
): RequestContext {
  const principal =
    actor.kind === 'session'
      ? {
          kind: 'session',
          tokenId: actor.caller.tokenId,
          role: actor.caller.role.name,
          memberId: actor.caller.member?.id ?? '',
        }
      : { kind: actor.kind, tokenId: '', role: actor.kind, memberId: '' };
  return {
    requestId: actor.requestId ?? newId('req'),
    tenant: { id: tenant.id, currency: tenant.currency, defaultVertical: tenant.defaultVertical },
    principal,
    idempotencyKey: '',
    agent: { runId: '', task: '', model: '', confirmedBy: '' },
    dryRun: false,
    operation,
  };
}
