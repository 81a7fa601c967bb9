// GET /api/v1/projects/:id/designs/:designId: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./designs.schemas.ts; listed by ../families.gen.ts.
import { readEndpoint } from '../../endpoint/read-endpoint.ts';
import { designParams, designSchema } from './designs.schemas.ts';

export const getDesign = readEndpoint({
  operationId: 'getDesign',
  path: '/projects/:id/designs/:designId',
  tag: 'Designs',
  summary: 'One design: what it draws, its status and, once sealed, who sealed it and when.',
  kind: 'deliverable',
  service: 'capture',
  params: designParams,
  answer: { design: designSchema },
});
