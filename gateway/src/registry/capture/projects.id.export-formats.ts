// GET /api/v1/projects/:id/export-formats: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./capture.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { defineEndpoint } from '../../endpoint/types.ts';
import { projectParams } from './capture.schemas.ts';

export const listExportFormats = defineEndpoint({
  operationId: 'listExportFormats',
  method: 'GET',
  path: '/projects/:id/export-formats',
  tag: 'Scenes',
  summary: 'Formats the project’s scenes can be exported to; a codec that is not installed is absent.',
  description:
    'A scene’s stored format is always listed (via native); conversions are listed only when their program is installed on the platform (via pdal for point clouds, via gdal_translate for rasters).',
  auth: 'scope',
  scope: { action: 'read', kind: 'deliverable' },
  params: projectParams,
  projectParam: 'id',
  response: z.object({
    items: z.array(z.object({ id: z.string(), name: z.string(), contentType: z.string(), via: z.string() })),
  }),
  handle: async ({ params, ctx, clients }) => ({
    body: {
      items: (await callUnary(clients.capture, 'listExportFormats', { projectId: params.id }, ctx)).items,
    },
  }),
});
