// What a caller may call, per endpoint: its scope, the rule of a cross-cutting read and a member
// binding, the same checks the pipeline makes. /capabilities publishes it; the tools a token is
// offered (the manifest with a token, the MCP endpoint) are the endpoints it allows.
import type { authorize as authorizeFn } from '../identity/authorize.ts';
import type { Caller } from '../identity/model.ts';
import type { EndpointDef } from '../endpoint/types.ts';
import { gatherRefusal } from './gather-rule.ts';

export function capability(endpoint: EndpointDef, caller: Caller, authorize: typeof authorizeFn) {
  const base = {
    operationId: endpoint.operationId,
    method: endpoint.method,
    path: `/api/v1${endpoint.path}`,
  };
  const scope = endpoint.scope;
  const gathered = gatherRefusal(authorize, caller, endpoint);
  if (!scope && !gathered) return { ...base, allowed: true };
  const decision = scope ? authorize(caller, scope) : ({ allowed: true } as const);
  if (decision.allowed && gathered) {
    return { ...base, scope, allowed: false, refusal: { code: gathered.code, reason: gathered.reason } };
  }
  const limits = {
    ...(endpoint.projectParam && caller.projectIds ? { projects: caller.projectIds } : {}),
    ...(endpoint.confirm ? { confirmation: endpoint.confirm.effect } : {}),
    ...(endpoint.budgets?.length ? { budgets: endpoint.budgets } : {}),
  };
  if (decision.allowed && endpoint.memberBound && !caller.member) {
    const reason = 'This call needs a token bound to a member; this token is bound to none.';
    return { ...base, scope, allowed: false, refusal: { code: 'principal_unbound', reason } };
  }
  return decision.allowed
    ? { ...base, scope, allowed: true, ...limits }
    : { ...base, scope, allowed: false, refusal: { code: decision.code, reason: decision.reason } };
}

/** Whether the caller may call the endpoint at all (a project-scoped one: for its projects). */
export const mayCall = (endpoint: EndpointDef, caller: Caller, authorize: typeof authorizeFn): boolean =>
  capability(endpoint, caller, authorize).allowed;
