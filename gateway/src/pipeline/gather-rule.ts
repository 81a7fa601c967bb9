// The one rule for reads that gather more than one kind or more than one project
// (docs/decisions.md, "Cross-cutting reads"): such a read answers a credential only what it could
// read one record at a time. Also the one refusal of a write by project restriction: making a
// project (EndpointDef.refusesRestricted). The registry declares per endpoint how (EndpointDef.gathers); this is
// where the pipeline refuses what cannot be cut, and where /capabilities learns the same answer.
import { AppError } from '@fieldops/kit';
import type { authorize as authorizeFn, Required } from '../identity/authorize.ts';
import type { Caller } from '../identity/model.ts';
import type { Kind } from '../identity/scopes.ts';
import type { EndpointDef } from '../endpoint/types.ts';

export interface GatherRefusal {
  code: 'out_of_scope' | 'role_denied';
  reason: string;
  /** The first scope missing (the spec's `required`), every one missing, or the restriction. */
  extras: { required: Required; missing?: Required[]; projectIds?: string[] };
}

const ASK = 'ask for a token that reads all of them, or skip the call';

/** Why this caller may not have this gathering read; null when it may (or the read gathers nothing). */
export function gatherRefusal(
  authorize: typeof authorizeFn,
  caller: Pick<Caller, 'role' | 'effective' | 'projectIds'>,
  endpoint: EndpointDef,
): GatherRefusal | null {
  const call = `${endpoint.method} /api/v1${endpoint.path}`;
  if (endpoint.refusesRestricted && caller.projectIds !== null)
    return restrictedRefusal(call, caller, endpoint);
  const rule = endpoint.gathers;
  if (!rule) return null;
  if (rule.byKind === 'require') {
    const denied = rule.kinds
      .map((kind: Kind) => ({ kind, decision: authorize(caller, { action: 'read', kind }) }))
      .filter(({ decision }) => !decision.allowed);
    const first = denied[0]?.decision;
    if (first && !first.allowed) {
      const missing = denied.map(({ kind }) => ({ action: 'read' as const, kind }));
      const names = missing.map((scope) => scope.kind).join(', ');
      const why =
        first.code === 'out_of_scope'
          ? 'this token was narrowed without'
          : `role ${caller.role.name} does not grant`;
      return {
        code: first.code === 'out_of_scope' ? 'out_of_scope' : 'role_denied',
        reason: `${call} holds records of ${rule.kinds.join(', ')}, and ${why} read on ${names}; ${ASK}.`,
        extras: { required: missing[0] as Required, missing },
      };
    }
  }
  if (rule.byProject === 'refuse' && caller.projectIds !== null) {
    const count = caller.projectIds.length;
    return {
      code: 'out_of_scope',
      reason: `${call} holds every project of the tenant, and this token is restricted to ${count} project${count === 1 ? '' : 's'}; ask for a token without a project restriction, or skip the call.`,
      extras: {
        required: endpoint.scope ?? { action: 'read', kind: 'job' },
        projectIds: [...caller.projectIds],
      },
    };
  }
  return null;
}

/** A restricted token may not make a project: it could reach nothing it made, or widen its own reach. */
function restrictedRefusal(
  call: string,
  caller: Pick<Caller, 'projectIds'>,
  endpoint: EndpointDef,
): GatherRefusal {
  const count = caller.projectIds?.length ?? 0;
  return {
    code: 'out_of_scope',
    reason: `${call} makes a new project, and this token is restricted to ${count} existing project${count === 1 ? '' : 's'}; ask for a token without a project restriction.`,
    extras: {
      required: endpoint.scope ?? { action: 'create', kind: 'job' },
      projectIds: [...(caller.projectIds ?? [])],
    },
  };
}

/** The pipeline's check: a refused gathering read is the spec's 403 with `required`. */
export function checkGatherRule(
  authorize: typeof authorizeFn,
  caller: Caller | null,
  endpoint: EndpointDef,
): void {
  if (!caller) return;
  const refusal = gatherRefusal(authorize, caller, endpoint);
  if (refusal) throw new AppError(refusal.code, refusal.reason, refusal.extras);
}
