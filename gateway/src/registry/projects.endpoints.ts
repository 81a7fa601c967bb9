// Projects (spec: Project (job), Project lifecycle, "Projects"). Served by projects.ProjectService.
import { LIFECYCLE_API_TRIGGERS, PROJECT_LIFECYCLE_MOVES, PROJECT_STATUSES } from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc/client';
import { z } from 'zod';
import { Q_MAX } from '../limits.js';
import {
  idParams,
  opIdField,
  pageBody,
  pageQuery,
  pageRequest,
  pageResponse,
  writeResponse,
} from './common.schemas.js';
import { projectSceneContent } from './project-scenes.js';
import { defineEndpoint, type EndpointDef } from './types.js';
import { writeResult } from './write-result.js';

const geo = z
  .strictObject({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) })
  .describe('WGS 84 degrees.');
const vertical = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z][a-z0-9-]{0,39}$/, 'must be a lower-case slug such as survey, roofing or solar')
  .describe('The line of work (survey, roofing, solar, ...); defaults to the tenant default on create.');
const projectFields = {
  name: z.string().trim().min(1).max(200),
  siteAddress: z.string().trim().max(500),
  accessNotes: z.string().max(2000),
  ownerName: z.string().trim().max(200),
  ownerId: z.string().trim().max(100).describe('Member id of the owner.'),
};

export const projectSchema = z.object({
  id: z.string(),
  customerId: z.string(),
  customerName: z.string().describe("The customer's canonical name, as crm holds it."),
  name: z.string(),
  siteId: z.string(),
  siteAddress: z.string().optional(),
  geo: geo.optional(),
  accessNotes: z.string().optional(),
  vertical: z.string(),
  ownerName: z.string().optional(),
  ownerId: z.string().optional(),
  status: z.enum(PROJECT_STATUSES).describe('Moved only through POST /projects/:id/lifecycle.'),
  dealId: z.string().describe('The deal opened with the project.'),
  etag: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  statusChangedAt: z.string(),
  opId: z.string().optional(),
  legalTriggers: z.array(z.enum(LIFECYCLE_API_TRIGGERS)).describe('Lifecycle triggers legal from here.'),
});

const projectSummary = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(PROJECT_STATUSES),
  vertical: z.string(),
  customerId: z.string(),
  customerName: z.string(),
  siteId: z.string(),
  siteAddress: z.string().optional(),
  updatedAt: z.string(),
});

const siteSchema = z.object({
  id: z.string(),
  customerId: z.string(),
  projectId: z.string(),
  address: z.string().optional(),
  geo: geo.optional(),
  accessNotes: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const linkedDeal = z.object({
  id: z.string(),
  stage: z.string(),
  value: z.object({ cents: z.number().int(), currency: z.string() }),
});

const projectDetail = z.object({
  project: projectSchema,
  etag: z.string(),
  scenes: z
    .array(
      z.object({
        id: z.string(),
        name: z.string(),
        status: z.string(),
        artifactIds: z.array(z.string()),
        exportFormats: z.array(z.string()),
      }),
    )
    .describe('Scenes with their artifact ids and the formats they can be exported to.'),
  deliverables: z
    .array(
      z.object({
        id: z.string(),
        name: z.string(),
        packaged: z.boolean(),
        files: z.array(
          z.object({
            name: z.string(),
            href: z.string().describe('A portal URL: opens in a browser session, not with a token.'),
            contentType: z.string().optional(),
            size: z.number().int().optional(),
          }),
        ),
      }),
    )
    .describe('Deliverable manifests; their hrefs are browser-session URLs.'),
});

// Spec: GET /projects states field_invalid (not field_too_long) for a q over 200 characters.
const projectQ = z
  .string()
  .refine((q) => q.length <= Q_MAX, `must be at most ${Q_MAX} characters`)
  .optional()
  .describe(
    'Free text over project name, customer name and site address, across the tenant; up to 200 characters.',
  );

const machine = { field: 'status', moves: PROJECT_LIFECYCLE_MOVES };

export const projectEndpoints: EndpointDef[] = [
  defineEndpoint({
    operationId: 'listProjects',
    method: 'GET',
    path: '/projects',
    tag: 'Projects',
    summary: 'List projects as lean summaries (customer, site, status), most recently updated first.',
    auth: 'scope',
    scope: { action: 'read', kind: 'job' },
    list: true,
    query: z.strictObject({
      ...pageQuery,
      q: projectQ,
      status: z.string().max(64).optional().describe('Exact status.'),
      vertical: z.string().max(64).optional().describe('Exact vertical.'),
      customerId: z.string().max(100).optional(),
      updatedSince: z.iso
        .datetime({ offset: true })
        .optional()
        .describe('ISO 8601 date-time: projects updated at or after it.'),
    }),
    response: pageResponse(projectSummary),
    errors: ['field_invalid'],
    handle: async ({ query, ctx, clients, caller }) => {
      const page = await callUnary(
        clients.projects,
        'listProjects',
        {
          page: pageRequest(query),
          q: query.q,
          status: query.status,
          vertical: query.vertical,
          customerId: query.customerId,
          updatedSince: query.updatedSince,
          scope: caller?.projectIds ? { ids: caller.projectIds } : undefined,
        },
        ctx,
      );
      return { body: pageBody(page) };
    },
  }),
  defineEndpoint({
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
    errors: ['not_found'],
    handle: async ({ params, ctx, clients }) => {
      // The project first: capture is asked only about a project the caller may read.
      const detail = await callUnary(clients.projects, 'getProject', { id: params.id }, ctx);
      const { scenes, deliverables } = await projectSceneContent(clients, params.id, ctx);
      const etag = detail.project?.etag ?? '';
      return { body: { ...detail, scenes, deliverables, etag }, etag };
    },
  }),
  defineEndpoint({
    operationId: 'createProject',
    method: 'POST',
    path: '/projects',
    tag: 'Projects',
    summary: 'Create a project with its site and a linked deal.',
    description:
      "customerName is required but the stored name is the customer's canonical one from crm. Money fields (contract value and the like) are refused as unknown fields.",
    auth: 'scope',
    scope: { action: 'create', kind: 'job' },
    idempotent: true,
    dryRun: true,
    body: z.strictObject({
      customerId: z.string().trim().min(1).max(100),
      customerName: z.string().trim().min(1).max(200),
      name: projectFields.name.optional(),
      siteAddress: projectFields.siteAddress.optional(),
      ownerName: projectFields.ownerName.optional(),
      accessNotes: projectFields.accessNotes.optional(),
      geo: geo.optional(),
      vertical: vertical.optional(),
      opId: opIdField,
    }),
    response: writeResponse('project', projectSchema).extend({ site: siteSchema, deal: linkedDeal }),
    errors: [
      'not_found',
      'invalid_json',
      'invalid_body',
      'field_required',
      'field_invalid',
      'unknown_field',
      'unavailable',
    ],
    handle: async ({ body, ctx, clients }) => {
      const write = await callUnary(clients.projects, 'createProject', body, ctx);
      const result = writeResult('project', write.project, write.meta);
      return { ...result, body: { ...result.body, site: write.site, deal: write.deal } };
    },
  }),
  defineEndpoint({
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
    errors: [
      'not_found',
      'invalid_json',
      'invalid_body',
      'field_required',
      'field_invalid',
      'field_invalid_enum',
      'unknown_field',
      'conflict',
    ],
    handle: async ({ params, body, ifMatch, ctx, clients }) => {
      const write = await callUnary(
        clients.projects,
        'updateProject',
        { ...body, id: params.id, ifMatch },
        ctx,
      );
      return writeResult('project', write.project, write.meta);
    },
  }),
  defineEndpoint({
    operationId: 'fireProjectLifecycle',
    method: 'POST',
    path: '/projects/:id/lifecycle',
    tag: 'Projects',
    summary: 'Move a project by one trigger of the lifecycle machine; replayed: true when already there.',
    description:
      'An illegal trigger is 409 conflict with legalTriggers. deliverable_shipped is refused while the project has no packaged deliverable. cancel is never accepted: cancelling is irreversible and done in the portal.',
    auth: 'scope',
    scope: { action: 'update', kind: 'job' },
    params: idParams,
    projectParam: 'id',
    dryRun: true,
    body: z.strictObject({
      trigger: z.enum(LIFECYCLE_API_TRIGGERS).describe('A trigger of the project lifecycle machine.'),
    }),
    machine,
    response: writeResponse('project', projectSchema),
    errors: [
      'not_found',
      'invalid_json',
      'invalid_body',
      'field_required',
      'field_invalid_enum',
      'unknown_field',
      'conflict',
    ],
    handle: async ({ params, body, ctx, clients }) => {
      const write = await callUnary(
        clients.projects,
        'fireLifecycleTrigger',
        { id: params.id, trigger: body.trigger },
        ctx,
      );
      return writeResult('project', write.project, write.meta);
    },
  }),
];
