// The permission gate, shared by API tokens and portal sessions (spec "Authentication" 2 and 4).
//
// The rule, in order:
//   1. allowed     when the credential's effective permissions (role ∩ narrowing) grant the
//                  action on the kind;
//   2. read_only   else, for a write (create/update), when the role the credential acts as holds
//                  no write verb at all (a read-only role such as Viewer): no token of it can write;
//   3. out_of_scope else, when the role grants it but the token's narrowing removed it: a broader
//                  token of the same role would do, whatever verbs the narrowing happens to hold;
//   4. role_denied else: the role itself does not grant it.
// A denial names `required: {action, kind}` so the caller knows what to ask for.
import { AppError } from '@fieldops/kit';
import type { Caller } from './model.ts';
import { WRITE_ACTIONS, grants, hasAnyWrite } from './permissions.ts';
import type { Action, Kind } from './scopes.ts';

export interface Required {
  action: Action;
  kind: Kind;
}

export type Authorization =
  | { allowed: true }
  | {
      allowed: false;
      code: 'read_only' | 'out_of_scope' | 'role_denied';
      reason: string;
      required: Required;
    };

const ASK = 'ask for a broader token or skip the call';

export function authorize(caller: Pick<Caller, 'role' | 'effective'>, required: Required): Authorization {
  const { action, kind } = required;
  const scope = `${action} on ${kind}`;
  if (grants(caller.effective, kind, action)) return { allowed: true };
  if (WRITE_ACTIONS.includes(action) && !hasAnyWrite(caller.role.permissions)) {
    return deny('read_only', `Role ${caller.role.name} is read-only and cannot ${scope}; ${ASK}.`, required);
  }
  if (grants(caller.role.permissions, kind, action)) {
    return deny(
      'out_of_scope',
      `Role ${caller.role.name} grants ${scope}, but this token was narrowed without it; ${ASK}.`,
      required,
    );
  }
  return deny('role_denied', `Role ${caller.role.name} does not grant ${scope}; ${ASK}.`, required);
}

const deny = (
  code: 'read_only' | 'out_of_scope' | 'role_denied',
  reason: string,
  required: Required,
): Authorization => ({
  allowed: false,
  code,
  reason,
  required: { action: required.action, kind: required.kind },
});

/**
 * Project restriction: true when the credential covers every project or lists this one. The
 * pipeline answers 404 not_found otherwise, the same as for another tenant's project.
 */
export const canAccessProject = (caller: Pick<Caller, 'projectIds'>, projectId: string): boolean =>
  caller.projectIds === null || caller.projectIds.includes(projectId);

/** authorize() as a throw: the spec's 403 body, with `required`. */
export function assertAuthorized(caller: Pick<Caller, 'role' | 'effective'>, required: Required): void {
  const result = authorize(caller, required);
  if (!result.allowed) throw new AppError(result.code, result.reason, { required: result.required });
}
