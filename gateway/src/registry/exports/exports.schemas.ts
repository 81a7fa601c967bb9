// Tenant exports (ENDPOINTS rows 42–44): an archive of the whole tenant, packaged in the
// background (queued → tables → assets → packaging → ready). Served by exports.ExportService.
// What the archive holds: docs/decisions.md, "Tenant exports".
// The schemas and helpers the endpoint files of this folder share; each endpoint is declared in
// the file named after its path.
import { EXPORT_PHASES, EXPORT_STATUSES } from '@fieldops/contracts';
import type { tenantExports } from '@fieldops/proto';
import { z } from 'zod';
import { KINDS } from '../../identity/scopes.ts';
import type { GatherRule } from '../../endpoint/types.ts';

export const exportSchema = z
  .object({
    id: z.string(),
    status: z.enum(EXPORT_STATUSES),
    error: z
      .object({ phase: z.enum(EXPORT_PHASES), message: z.string() })
      .optional()
      .describe('Set when status is failed: the phase that failed and why.'),
    sizeBytes: z.number().int().optional().describe('Once ready: bytes of the archive (a .tar.gz).'),
    sha256: z.string().optional().describe('Once ready: hex SHA-256 of the archive file.'),
    expiresAt: z.string().optional().describe('Once ready: when the archive stops being offered.'),
    downloadUrl: z
      .string()
      .optional()
      .describe('Once ready and until expiresAt: a short-lived signed link, minted on every read.'),
    downloadUrlExpiresAt: z.string().optional(),
    readyAt: z.string().optional(),
    attempts: z.number().int().describe('Packager starts; a restart mid-way starts it again.'),
    requestedBy: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    opId: z.string().optional(),
  })
  .meta({ id: 'Export' });

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
