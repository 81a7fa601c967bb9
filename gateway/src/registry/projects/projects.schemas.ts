// Projects (spec: Project (job), Project lifecycle, "Projects"). Served by projects.ProjectService.
// The schemas and helpers the endpoint files of this folder share; each endpoint is declared in
// the file named after its path.
import { PROJECT_FIELD_LIMITS as MAX, PROJECT_LIFECYCLE_MACHINE } from '@fieldops/contracts';
import { z } from 'zod';
import { Q_MAX } from '../../limits.ts';
import { writeResponse } from '../../endpoint/common.schemas.ts';
import type { MovedRecord } from '../../endpoint/move-endpoint.ts';
import { projectDetailReply, projectSchema } from './projects.gen.ts';

// The response shapes and the coordinate are derived from projects.proto (npm run gen).
export { geo, linkedDeal, projectSchema, projectSummary, siteSchema } from './projects.gen.ts';
export const vertical = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z][a-z0-9-]{0,39}$/, 'must be a lower-case slug such as survey, roofing or solar')
  .describe('The line of work (survey, roofing, solar, ...); defaults to the tenant default on create.');
export const projectFields = {
  name: z.string().trim().min(1).max(MAX.name),
  siteAddress: z.string().trim().max(MAX.siteAddress),
  accessNotes: z.string().max(MAX.accessNotes),
  ownerName: z.string().trim().max(MAX.ownerName),
  ownerId: z.string().trim().max(MAX.ownerId).describe('Member id of the owner.'),
};

// The detail is derived from projects.proto; the project's etag, which the gateway adds, follows the project.
const { project, ...detailRest } = projectDetailReply.shape;
export const projectDetail = z
  .object({ project, etag: z.string(), ...detailRest })
  .meta({ id: 'ProjectDetail' });

// Spec: GET /projects states field_invalid (not field_too_long) for a q over 200 characters.
export const projectQ = z
  .string()
  .refine((q) => q.length <= Q_MAX, `must be at most ${Q_MAX} characters`)
  .optional()
  .describe(
    'Free text over project name, customer name and site address, across the tenant; up to 200 characters.',
  );

/** A project as POST /projects/:id/lifecycle moves it along its machine. */
export const MOVED_PROJECT: MovedRecord = {
  path: '/projects',
  tag: 'Projects',
  kind: 'job',
  machine: { field: 'status', moves: PROJECT_LIFECYCLE_MACHINE.moves },
  response: writeResponse('project', projectSchema),
  projectScoped: true,
};
