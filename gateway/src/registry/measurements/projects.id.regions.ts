// GET /api/v1/projects/:id/regions,
// PUT /api/v1/projects/:id/regions:
// declared here (route, scope, schemas, errors, handler). The regions a customer states for a
// project, as a versioned set: each PUT replaces the whole set under If-Match and is a new version.
// Schemas: ./regions.schemas.ts; registry order: ./index.ts.
import { REGION_FIELD_LIMITS } from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { writeResponse } from '../../endpoint/common.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { writeResult } from '../../endpoint/write-result.ts';
import { projectParams } from './measurements.schemas.ts';
import { regionSetOut, regionSetSchema, statedRegion } from './regions.schemas.ts';

export const getProjectRegions = defineEndpoint({
  operationId: 'getProjectRegions',
  method: 'GET',
  path: '/projects/:id/regions',
  tag: 'Deliverables and measurements',
  summary: 'The measurement regions stated for a project (newest version), with the etag to change them.',
  description:
    'Version 0 with no regions when none were stated: the newest capture is then measured as one automatic region (the whole capture above a fitted plane), and its quantities say so (basis automatic-whole-capture).',
  auth: 'scope',
  scope: { action: 'read', kind: 'deliverable' },
  params: projectParams,
  projectParam: 'id',
  query: z.strictObject({
    version: z.coerce
      .number()
      .int()
      .min(1)
      .optional()
      .describe(
        'An earlier version, as a quantities snapshot’s regionVersion names it; its etag is "" (only the newest is amended).',
      ),
  }),
  response: z.object({ regionSet: regionSetSchema, etag: z.string() }),
  handle: async ({ params, query, ctx, clients }) => {
    const set = await callUnary(
      clients.measurements,
      'getRegions',
      { projectId: params.id, ...(query.version !== undefined ? { version: query.version } : {}) },
      ctx,
    );
    return {
      body: { regionSet: regionSetOut(set), etag: set.etag },
      ...(set.etag ? { etag: set.etag } : {}),
    };
  },
});

/** A set's positions in all, over the cap: refused before the service checks any polygon. */
const setTooLarge = (positions: number) => ({
  code: 'custom' as const,
  message: `the regions hold ${positions} positions in all; at most ${REGION_FIELD_LIMITS.setVertices} in one version, ${REGION_FIELD_LIMITS.vertices} in one region`,
});

export const stateProjectRegions = defineEndpoint({
  operationId: 'stateProjectRegions',
  method: 'PUT',
  path: '/projects/:id/regions',
  tag: 'Deliverables and measurements',
  summary: 'State the project’s measurement regions as a new version (the whole set; If-Match required).',
  description: `Each region: id, name, a toe polygon in WGS 84, a base (triangulated, fitted-plane, lowest-point, or elevation with baseElevationM) and a material or densityTPerM3 for tonnage; at most ${REGION_FIELD_LIMITS.regions} regions, ${REGION_FIELD_LIMITS.vertices} positions in one polygon and ${REGION_FIELD_LIMITS.setVertices} in all. Each call, a dry run too, spends one compute run. An empty list returns to the automatic region. If-Match takes the etag of GET /projects/:id/regions (or *); a stale one is 409 with the current set attached. Stating regions measures nothing: the next processed capture is measured with them, and POST /projects/:id/quantities/remeasure re-measures the newest one.`,
  auth: 'scope',
  scope: { action: 'update', kind: 'deliverable' },
  params: projectParams,
  projectParam: 'id',
  amending: true,
  dryRun: true,
  idempotent: true,
  // Checking up to REGION_FIELD_LIMITS.setVertices positions for crossings is compute (docs/security.md).
  budgets: [{ kind: 'compute', amount: 1 }],
  budgetsOnDryRun: true,
  body: z.strictObject({
    regions: z
      .array(statedRegion)
      .max(REGION_FIELD_LIMITS.regions)
      .superRefine((regions, ctx) => {
        const positions = regions.reduce((sum, region) => sum + region.polygon.length, 0);
        if (positions > REGION_FIELD_LIMITS.setVertices) ctx.addIssue(setTooLarge(positions));
      }),
  }),
  response: writeResponse('regionSet', regionSetSchema),
  handle: async ({ params, body, ifMatch, ctx, clients }) => {
    const write = await callUnary(
      clients.measurements,
      'stateRegions',
      { projectId: params.id, ifMatch, regions: body.regions },
      ctx,
    );
    return writeResult('regionSet', write.regionSet && regionSetOut(write.regionSet), write.meta);
  },
});
