// GET /api/v1/projects/:id/quantities: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./measurements.schemas.ts; listed by ../families.gen.ts.
import { readEndpoint } from '../../endpoint/read-endpoint.ts';
import { projectParams, quantitiesSchema, quantitiesOut } from './measurements.schemas.ts';

export const getProjectQuantities = readEndpoint({
  operationId: 'getProjectQuantities',
  rpc: 'getQuantities',
  path: '/projects/:id/quantities',
  tag: 'Deliverables and measurements',
  summary:
    'Measured quantities of the site snapshot: per-region volumes and the site rollup, each with unit and bands.',
  description:
    'The newest snapshot measured on the project. Each region and the rollup carry cut, fill, net (m3), footprint (m2) and tonnage (t) with a bands map keyed by field; regionCount is a tally and carries no band. A project with no processed 3D capture yet answers 200 with measured: false, no regions, regionCount 0 and a rollup marked measured: false.',
  kind: 'deliverable',
  service: 'measurements',
  params: projectParams,
  answer: { quantities: quantitiesSchema },
  shape: quantitiesOut,
});
