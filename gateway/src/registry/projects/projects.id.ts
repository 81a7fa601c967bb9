// GET /api/v1/projects/:id,
// PATCH /api/v1/projects/:id:
// declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./projects.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { idParams, writeResponse } from '../../endpoint/common.schemas.ts';
import { projectSceneContent } from '../../endpoint/project-scenes.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { forwardWrite } from '../../endpoint/write-result.ts';
import { geo, vertical, projectFields, projectSchema, projectDetail } from './projects.schemas.ts';

export const getProject = defineEndpoint({
  operationId: 'getProject',
  method: 'GET',
  path: '/projects/:id',
  tag: 'Projects',
  summary: 'Read one project with its scenes and deliverable manifests.',
  description:
    'Scenes carry artifact ids and export formats; deliverable hrefs are portal URLs for a browser session.',
  auth: 'scope',
  scope: { action: 'read', kind: 'job' },
  params: idParams,
  projectParam: 'id',
  response: projectDetail,
  handle: async ({ params, ctx, clients }) => {
    // The project first: capture is asked only about a project the caller may read.
    const detail = await callUnary(clients.projects, 'getProject', { id: params.id }, ctx);
    const { scenes, deliverables } = await projectSceneContent(clients, params.id, ctx);
    const etag = detail.project?.etag ?? '';
    return { body: { ...detail, scenes, deliverables, etag }, etag };
  },
});

export const updateProject = defineEndpoint({
  operationId: 'updateProject',
  memberFields: ['ownerId'],
  method: 'PATCH',
  path: '/projects/:id',
  tag: 'Projects',
  summary: 'Amend a project; status and money are not amendable.',
  description:
    'Changing the vertical of a project that already has design or delivery content is 409 conflict.',
  auth: 'scope',
  scope: { action: 'update', kind: 'job' },
  params: idParams,
  projectParam: 'id',
  amending: true,
  dryRun: true,
  body: z.strictObject({
    name: projectFields.name.optional(),
    ownerId: projectFields.ownerId.optional(),
    siteAddress: projectFields.siteAddress.optional(),
    geo: geo.optional(),
    accessNotes: projectFields.accessNotes.optional(),
    vertical: vertical.optional(),
  }),
  bodyRequiresOneOf: ['name', 'ownerId', 'siteAddress', 'geo', 'accessNotes', 'vertical'],
  response: writeResponse('project', projectSchema),
  handle: ({ params, body, ifMatch, ctx, clients }) =>
    forwardWrite(
      'project',
      callUnary(clients.projects, 'updateProject', { ...body, id: params.id, ifMatch }, ctx),
    ),
});
