// Tenant exports (ENDPOINTS rows 42–44): an archive of the whole tenant, packaged in the
// background (queued → tables → assets → packaging → ready). Served by exports.ExportService.
// What the archive holds: docs/decisions.md, "Tenant exports".
// The schemas and helpers the endpoint files of this folder share; each endpoint is declared in
// the file named after its path.
import type { tenantExports } from '@fieldops/proto';
import { KINDS } from '../../identity/scopes.ts';
import type { GatherRule } from '../../endpoint/types.ts';
import { exportSchema } from './exports.gen.ts';

// The export's shape is derived from exports.proto (npm run gen); what differs over HTTP is here.
export { exportSchema };

/** The export as the API shows it: members that only a ready (or failed) export has are left out until then. */
export function exportView(view: tenantExports.TenantExport | undefined): Record<string, unknown> {
  if (!view) return {};
  const { sizeBytes, sha256, expiresAt, downloadUrl, downloadUrlExpiresAt, readyAt, opId, error, ...rest } =
    view;
  return {
    ...rest,
    ...(error ? { error } : {}),
    ...(view.status === 'ready' ? { sizeBytes, sha256, expiresAt, readyAt } : {}),
    ...(downloadUrl ? { downloadUrl, downloadUrlExpiresAt } : {}),
    ...(opId ? { opId } : {}),
  };
}

export const SETTINGS_READ = { action: 'read', kind: 'settings' } as const;

/**
 * The archive holds every kind and every project, and cannot be cut: a narrowed or
 * project-restricted token is refused every export call, the link-bearing reads included
 * (docs/decisions.md, "Cross-cutting reads").
 */
export const WHOLE_TENANT: GatherRule = { kinds: KINDS, byKind: 'require', byProject: 'refuse' };
