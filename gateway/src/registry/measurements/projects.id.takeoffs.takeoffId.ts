// GET /api/v1/projects/:id/takeoffs/:takeoffId: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./measurements.schemas.ts; listed by ../families.gen.ts.
import type { measurements } from '@fieldops/proto';
import { readEndpoint } from '../../endpoint/read-endpoint.ts';
import { takeoffParams, takeoffSchema, takeoffOut } from './measurements.schemas.ts';

export const getProjectTakeoff = readEndpoint({
  operationId: 'getProjectTakeoff',
  rpc: 'getTakeoff',
  path: '/projects/:id/takeoffs/:takeoffId',
  tag: 'Deliverables and measurements',
  summary:
    'One takeoff in full: lines in SI with bands or null, provenance, rollup, scope, assumptions, disclosures.',
  kind: 'deliverable',
  service: 'measurements',
  params: takeoffParams,
  answer: { takeoff: takeoffSchema },
  shape: (takeoff: measurements.Takeoff) => takeoffOut(takeoff, true),
});
