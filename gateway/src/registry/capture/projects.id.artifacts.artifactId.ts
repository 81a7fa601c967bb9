// GET /api/v1/projects/:id/artifacts/:artifactId: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./capture.schemas.ts; listed by ../families.gen.ts.
import { z } from 'zod';
import { readEndpoint } from '../../endpoint/read-endpoint.ts';
import { artifactParams } from './capture.schemas.ts';

export const getArtifact = readEndpoint({
  operationId: 'getArtifact',
  path: '/projects/:id/artifacts/:artifactId',
  tag: 'Scenes',
  summary: 'An artifact with a short-lived download link (href) that can be fetched without a token.',
  description: 'The link lives 5 minutes; read the artifact again for a fresh one.',
  kind: 'deliverable',
  service: 'capture',
  params: artifactParams,
  answer: {
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
  },
});
