// The scope vocabulary, as data: scopes are (action, kind) pairs. The gateway's permission model
// (gateway/src/identity/scopes.ts: roles, narrowing) and the webhook catalogue's read scopes
// (webhook-event-scopes.ts) both read these lists, so the two cannot name different kinds.

export const SCOPE_ACTIONS = ['read', 'create', 'update'] as const;
export type ScopeAction = (typeof SCOPE_ACTIONS)[number];

export const SCOPE_KINDS = [
  'deliverable',
  'lead',
  'customer',
  'deal',
  'job',
  'capture',
  'settings',
  'report',
] as const;
export type ScopeKind = (typeof SCOPE_KINDS)[number];

/**
 * Kinds whose records belong to a project: a project-restricted credential reads them only on its
 * projects. The others (leads, customers, deals, settings, reports) are tenant-level.
 */
export const PROJECT_SCOPE_KINDS: readonly ScopeKind[] = ['job', 'capture', 'deliverable'];
