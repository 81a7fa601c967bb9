// GET /api/v1/projects/:id/artifacts/:artifactId: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./capture.schemas.ts; registry order: ./index.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { defineEndpoint } from '../types.js';
import { artifactParams } from './capture.schemas.js';

export const getArtifact = defineEndpoint({
  operationId: 'getArtifact',
  method: 'GET',
  path: '/projects/:id/artifacts/:artifactId',
  tag: 'Scenes',
  summary: 'An artifact with a short-lived download link (href) that can be fetched without a token.',
  description: 'The link lives 5 minutes; read the artifact again for a fresh one.',
  auth: 'scope',
  scope: { action: 'read', kind: 'deliverable' },
  params: artifactParams,
  projectParam: 'id',
  response: z.object({
    artifact: z
      .object({
        id: z.string(),
        projectId: z.string(),
        sceneId: z.string(),
        name: z.string(),
        contentType: z.string(),
        size: z.number().int(),
        href: z.string(),
        expiresAt: z.string(),
      })
      .meta({ id: 'Artifact' }),
  }),
  handle: async ({ params, ctx, clients }) => ({
    body: {
      artifact: await callUnary(
        clients.capture,
        'getArtifact',
        { projectId: params.id, artifactId: params.artifactId },
        ctx,
      ),
    },
  }),
});
