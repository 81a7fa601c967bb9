// Set arithmetic over Permissions (kind → verbs), and the one schema every input of permissions
// goes through (custom roles, token narrowing), so a kind or verb outside scopes.ts is refused
// the same way everywhere.
import { z } from 'zod';
import { ACTIONS, KINDS, isKind } from './scopes.ts';
import type { Action, Kind, Permissions } from './scopes.ts';

export const WRITE_ACTIONS: readonly Action[] = ACTIONS.filter((action) => action !== 'read');

export const grants = (permissions: Permissions, kind: Kind, action: Action): boolean =>
  permissions[kind]?.includes(action) ?? false;

/** Every (kind, verb) pair granted, in the order of KINDS and ACTIONS (stable for messages). */
export function pairsOf(permissions: Permissions): { kind: Kind; action: Action }[] {
  return KINDS.flatMap((kind) =>
    ACTIONS.filter((action) => grants(permissions, kind, action)).map((action) => ({ kind, action })),
  );
}

/** Canonical form: kinds and verbs in declaration order, no duplicates, no empty kinds. */
export function normalize(permissions: Permissions): Permissions {
  const out: Permissions = {};
  for (const { kind, action } of pairsOf(permissions)) (out[kind] ??= []).push(action);
  return out;
}

export function intersect(a: Permissions, b: Permissions): Permissions {
  return normalize(
    Object.fromEntries(KINDS.map((kind) => [kind, (a[kind] ?? []).filter((v) => grants(b, kind, v))])),
  );
}

/** The first pair `inner` grants that `outer` does not; null when inner is within outer. */
export const firstExcess = (inner: Permissions, outer: Permissions): { kind: Kind; action: Action } | null =>
  pairsOf(inner).find(({ kind, action }) => !grants(outer, kind, action)) ?? null;

export const hasAnyWrite = (permissions: Permissions): boolean =>
  pairsOf(permissions).some(({ action }) => WRITE_ACTIONS.includes(action));

const verbsSchema = z.array(z.enum(ACTIONS)).max(ACTIONS.length * 2);

/**
 * `{kind: verbs[]}`. A record plus a refinement rather than a strict object, so an unknown kind
 * is reported as `permissions.<kind>` with the list of kinds instead of as an unknown body field.
 */
export const permissionsSchema = z
  .record(z.string(), verbsSchema)
  .superRefine((value, ctx) => {
    for (const key of Object.keys(value)) {
      if (!isKind(key)) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `${key} is not a kind; kinds are ${KINDS.join(', ')}`,
        });
      }
    }
  })
  .transform((value) => normalize(value as Permissions));
