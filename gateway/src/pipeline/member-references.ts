// Members live in the gateway's identity module, so the gateway checks the body fields that name
// them (an owner, assignees), as data on the endpoint (`memberFields`), before any service stores
// them. A missing member and a member of another tenant get the same answer, so a caller learns
// nothing about other tenants: not_found when the endpoint can answer it (errorCodesOf: its own
// codes and the project scope's), else field_invalid.
import { AppError } from '@fieldops/kit';
import type { Caller } from '../identity/model.ts';
import { errorCodesOf } from './pipeline-errors.ts';
import type { EndpointDef } from '../endpoint/types.ts';
import type { PipelineDeps } from './deps.ts';

function idsIn(value: unknown): string[] {
  if (typeof value === 'string') return value === '' ? [] : [value];
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string' && id !== '') : [];
}

export async function checkMemberReferences(
  deps: PipelineDeps,
  caller: Caller | null,
  endpoint: EndpointDef,
  body: Record<string, unknown>,
): Promise<void> {
  const exists = deps.memberExists;
  if (!endpoint.memberFields || !exists || !caller) return;
  for (const field of endpoint.memberFields) {
    for (const id of new Set(idsIn(body[field]))) {
      if (!(await exists(caller.tenant.id, id))) {
        // Derived only on a refusal: the codes are the same every time, and most writes name
        // members that exist.
        throw new AppError(
          errorCodesOf(endpoint).includes('not_found') ? 'not_found' : 'field_invalid',
          `No member with id ${id} exists in this tenant; ${field} must name members of the tenant.`,
          { field },
        );
      }
    }
  }
}
