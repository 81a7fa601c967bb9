// POST /api/v1/exports, GET /api/v1/exports: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./exports.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { opIdField, pageBody, pageQuery, pageRequest, pageResponse } from '../../endpoint/common.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { writeResult } from '../../endpoint/write-result.ts';
import { exportSchema, exportView, SETTINGS_READ, WHOLE_TENANT } from './exports.schemas.ts';

export const createExport = defineEndpoint({
  operationId: 'createExport',
  method: 'POST',
  path: '/exports',
  tag: 'Exports',
  summary: 'Queue an archive of the whole tenant; poll GET /exports/:id until it is ready.',
  description:
    'Spends one compute run. With opId (or Idempotency-Key) a retry returns the same export; without a key a retry queues a second archive. The archive (.tar.gz) holds every record as NDJSON per collection, the stored files, a manifest and SHA256SUMS.',
  auth: 'scope',
  gathers: WHOLE_TENANT,
  scope: { action: 'create', kind: 'settings' },
  idempotent: true,
  // The service rehearses it (runWrite); the pipeline's dry run is how a replay is known to cost nothing.
  dryRun: true,
  budgets: [{ kind: 'compute', amount: 1 }],
  body: z.strictObject({ opId: opIdField }),
  response: z.object({ export: exportSchema, replayed: z.boolean().optional() }),
  handle: async ({ body, ctx, clients }) => {
    const write = await callUnary(clients.exports, 'createExport', { opId: body.opId }, ctx);
    return writeResult('export', exportView(write.export), write.meta);
  },
});

export const listExports = defineEndpoint({
  operationId: 'listExports',
  method: 'GET',
  path: '/exports',
  tag: 'Exports',
  summary: "The tenant's exports, newest first, with status and, once ready, size, expiry and link.",
  auth: 'scope',
  gathers: WHOLE_TENANT,
  scope: SETTINGS_READ,
  list: true,
  query: z.strictObject({ ...pageQuery }),
  response: pageResponse(exportSchema),
  handle: async ({ query, ctx, clients }) => {
    const page = await callUnary(clients.exports, 'listExports', { page: pageRequest(query) }, ctx);
    return { body: pageBody({ ...page, items: page.items.map(exportView) }) };
  },
});
