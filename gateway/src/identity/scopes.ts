// The permission vocabulary, as data. Scopes are (action, kind) pairs; roles and tokens grant
// verbs per kind. The registry, /me, /capabilities, the admin API and the docs read these.
import { SCOPE_ACTIONS, SCOPE_KINDS, type ScopeAction, type ScopeKind } from '@fieldops/contracts';

// The lists themselves live in contracts/ (scope-kinds.ts), beside the webhook catalogue's read
// scopes, so both name the same kinds.
export const ACTIONS = SCOPE_ACTIONS;
export type Action = ScopeAction;

export const KINDS = SCOPE_KINDS;
export type Kind = ScopeKind;

/** kind → verbs granted. A kind that is absent grants nothing. */
export type Permissions = Partial<Record<Kind, Action[]>>;

const every = (verbs: readonly Action[], kinds: readonly Kind[] = KINDS): Permissions =>
  Object.fromEntries(kinds.map((kind) => [kind, [...verbs]]));

/** Built-in roles (ARCHITECTURE §5). Custom roles are stored per tenant with the same shape. */
export const BUILT_IN_ROLES: Record<string, { description: string; permissions: Permissions }> = {
  Owner: { description: 'Every kind, every verb.', permissions: every(ACTIONS) },
  Manager: { description: 'Every kind, every verb.', permissions: every(ACTIONS) },
  Staff: {
    description: 'Every kind but settings, every verb.',
    permissions: every(
      ACTIONS,
      KINDS.filter((kind) => kind !== 'settings'),
    ),
  },
  Viewer: { description: 'Read only: a write answers 403 read_only.', permissions: every(['read']) },
};

export const isAction = (value: unknown): value is Action => ACTIONS.includes(value as Action);
export const isKind = (value: unknown): value is Kind => KINDS.includes(value as Kind);
