// Tenant exports (ENDPOINTS rows 42–44): an archive of the whole tenant, packaged in the
// background (queued → tables → assets → packaging → ready). Served by exports.ExportService.
// What the archive holds: docs/decisions.md, "Tenant exports".
import { EXPORT_PHASES, EXPORT_STATUSES } from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc/client';
import type { tenantExports } from '@fieldops/proto';
import { z } from 'zod';
import { idParams, opIdField, pageBody, pageQuery, pageRequest, pageResponse } from './common.schemas.js';
import { defineEndpoint, type EndpointDef } from './types.js';
import { writeResult } from './write-result.js';

export const exportSchema = z.object({
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
});

/** The export as the API shows it: members that only a ready (or failed) export has are left out until then. */
function exportView(view: tenantExports.TenantExport | undefined): Record<string, unknown> {
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

const SETTINGS_READ = { action: 'read', kind: 'settings' } as const;

export const exportEndpoints: EndpointDef[] = [
  defineEndpoint({
    operationId: 'createExport',
    method: 'POST',
    path: '/exports',
    tag: 'Exports',
    summary: 'Queue an archive of the whole tenant; poll GET /exports/:id until it is ready.',
    description:
      'Spends one compute run. With opId (or Idempotency-Key) a retry returns the same export; without a key a retry queues a second archive. The archive (.tar.gz) holds every record as NDJSON per collection, the stored files, a manifest and SHA256SUMS.',
    auth: 'scope',
    scope: { action: 'create', kind: 'settings' },
    idempotent: true,
    budgets: [{ kind: 'compute', amount: 1 }],
    body: z.strictObject({ opId: opIdField }),
    response: z.object({ export: exportSchema, replayed: z.boolean().optional() }),
    errors: ['invalid_json', 'invalid_body', 'unknown_field', 'conflict', 'unavailable'],
    handle: async ({ body, ctx, clients }) => {
      const write = await callUnary(clients.exports, 'createExport', { opId: body.opId }, ctx);
      return writeResult('export', exportView(write.export), write.meta);
    },
  }),
  defineEndpoint({
    operationId: 'listExports',
    method: 'GET',
    path: '/exports',
    tag: 'Exports',
    summary: "The tenant's exports, newest first, with status and, once ready, size, expiry and link.",
    auth: 'scope',
    scope: SETTINGS_READ,
    list: true,
    query: z.strictObject({ ...pageQuery }),
    response: pageResponse(exportSchema),
    errors: ['field_invalid'],
    handle: async ({ query, ctx, clients }) => {
      const page = await callUnary(clients.exports, 'listExports', { page: pageRequest(query) }, ctx);
      return { body: pageBody({ ...page, items: page.items.map(exportView) }) };
    },
  }),
  defineEndpoint({
    operationId: 'getExport',
    method: 'GET',
    path: '/exports/:id',
    tag: 'Exports',
    summary: 'One export: the poll target. A failed export names the phase that failed.',
    auth: 'scope',
    scope: SETTINGS_READ,
    params: idParams,
    response: z.object({ export: exportSchema }),
    errors: ['not_found'],
    handle: async ({ params, ctx, clients }) => {
      const view = await callUnary(clients.exports, 'getExport', { id: params.id }, ctx);
      return { body: { export: exportView(view) } };
    },
  }),
];
