// GET /api/v1/projects, POST /api/v1/projects: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./projects.schemas.ts; listed by ../families.gen.ts.
import { PROJECT_FIELD_LIMITS, PROJECT_FILTER_LIMITS as FILTER } from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { opIdField, writeResponse } from '../../endpoint/common.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { listEndpoint } from '../../endpoint/list-endpoint.ts';
import { writeResult } from '../../endpoint/write-result.ts';
import { listProjectsQueryDocs } from './projects.gen.ts';
import {
  geo,
  vertical,
  projectFields,
  projectSchema,
  projectSummary,
  siteSchema,
  linkedDeal,
  projectQ,
} from './projects.schemas.ts';

export const listProjects = listEndpoint({
  operationId: 'listProjects',
  path: '/projects',
  tag: 'Projects',
  summary: 'List projects as lean summaries (customer, site, status), most recently updated first.',
  kind: 'job',
  service: 'projects',
  filters: {
    q: projectQ,
    status: z.string().max(FILTER.status).optional().describe('Exact status.'),
    vertical: z.string().max(FILTER.vertical).optional().describe('Exact vertical.'),
    customerId: z.string().max(FILTER.customerId).optional(),
    updatedSince: z.iso.datetime({ offset: true }).optional().describe(listProjectsQueryDocs.updatedSince),
  },
  item: projectSummary,
  projectScope: true,
});

export const createProject = defineEndpoint({
  operationId: 'createProject',
  method: 'POST',
  path: '/projects',
  tag: 'Projects',
  summary: 'Create a project with its site and a linked deal.',
  description:
    "customerName is required but the stored name is the customer's canonical one from crm. Money fields (contract value and the like) are refused as unknown fields.",
  auth: 'scope',
  scope: { action: 'create', kind: 'job' },
  refusesRestricted: true,
  idempotent: true,
  dryRun: true,
  body: z.strictObject({
    customerId: z.string().trim().min(1).max(PROJECT_FIELD_LIMITS.customerId),
    customerName: z.string().trim().min(1).max(PROJECT_FIELD_LIMITS.customerName),
    name: projectFields.name.optional(),
    siteAddress: projectFields.siteAddress.optional(),
    ownerName: projectFields.ownerName.optional(),
    accessNotes: projectFields.accessNotes.optional(),
    geo: geo.optional(),
    vertical: vertical.optional(),
    opId: opIdField,
  }),
  response: writeResponse('project', projectSchema).extend({ site: siteSchema, deal: linkedDeal }),
  errors: ['not_found'],
  handle: async ({ body, ctx, clients }) => {
    const write = await callUnary(clients.projects, 'createProject', body, ctx);
    const result = writeResult('project', write.project, write.meta);
    return { ...result, body: { ...result.body, site: write.site, deal: write.deal } };
  },
});
