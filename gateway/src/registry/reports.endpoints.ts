// Saved reports (ENDPOINTS rows 45–46, plus POST /reports to save one: the spec lists only the
// reads). A report is a definition only: the figures it watches and the queries behind them, never
// a value. Every call needs a token bound to a member (409 principal_unbound). Served by
// exports.ReportService.
import { callUnary } from '@fieldops/kit/grpc/client';
import type { tenantExports } from '@fieldops/proto';
import { z } from 'zod';
import { idParams, opIdField, pageBody, pageQuery, pageRequest, pageResponse } from './common.schemas.js';
import { defineEndpoint, type EndpointDef } from './types.js';
import { writeResult } from './write-result.js';
import { checkReportReferences } from './report-references.js';

const RESOURCES = ['leads', 'customers', 'deals', 'proposals', 'invoices', 'bookings', 'projects'] as const;
const MEASURES = ['count', 'sum', 'average'] as const;

const figureSchema = z.object({
  label: z.string(),
  resource: z.enum(RESOURCES).describe('The list the figure is computed over.'),
  measure: z.enum(MEASURES),
  field: z.string().optional().describe('The numeric field summed or averaged (not for count).'),
  filter: z
    .record(z.string(), z.string())
    .describe('The query behind the figure: list filters as that list takes them.'),
});

export const reportSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  figures: z.array(figureSchema),
  ownerMemberId: z.string().describe('The member who saved it.'),
  createdAt: z.string(),
  updatedAt: z.string(),
  opId: z.string().optional(),
});

function reportView(report: tenantExports.Report | undefined): Record<string, unknown> {
  if (!report) return {};
  const { description, opId, figures, ...rest } = report;
  return {
    ...rest,
    ...(description ? { description } : {}),
    ...(opId ? { opId } : {}),
    figures: figures.map(({ filterJson, field, ...figure }) => ({
      ...figure,
      ...(field ? { field } : {}),
      filter: JSON.parse(filterJson || '{}') as Record<string, string>,
    })),
  };
}

const UNBOUND =
  'Needs a token bound to a member (409 principal_unbound). A Manager (or Owner) token sees the tenant’s reports; any other token sees its member’s own.';

export const reportEndpoints: EndpointDef[] = [
  defineEndpoint({
    operationId: 'listReports',
    method: 'GET',
    path: '/reports',
    tag: 'Reports',
    summary: 'Saved report definitions, newest first (no values are computed).',
    description: UNBOUND,
    auth: 'scope',
    scope: { action: 'read', kind: 'report' },
    memberBound: true,
    list: true,
    query: z.strictObject({ ...pageQuery }),
    response: pageResponse(reportSchema),
    errors: ['principal_unbound', 'field_invalid'],
    handle: async ({ query, ctx, clients }) => {
      const page = await callUnary(clients.reports, 'listReports', { page: pageRequest(query) }, ctx);
      return { body: pageBody({ ...page, items: page.items.map(reportView) }) };
    },
  }),
  defineEndpoint({
    operationId: 'getReport',
    method: 'GET',
    path: '/reports/:id',
    tag: 'Reports',
    summary: "One saved report's definition: the figures it watches and the queries behind them.",
    description: `${UNBOUND} Another member's report is not_found for a token that may not see it.`,
    auth: 'scope',
    scope: { action: 'read', kind: 'report' },
    memberBound: true,
    params: idParams,
    response: z.object({ report: reportSchema }),
    errors: ['principal_unbound', 'not_found'],
    handle: async ({ params, ctx, clients }) => {
      const report = await callUnary(clients.reports, 'getReport', { id: params.id }, ctx);
      return { body: { report: reportView(report) } };
    },
  }),
  defineEndpoint({
    operationId: 'saveReport',
    method: 'POST',
    path: '/reports',
    tag: 'Reports',
    summary:
      "Save a report definition for the token's member (beyond the spec's reads; see docs/decisions.md).",
    description:
      'Needs a token bound to a member (409 principal_unbound): the report is private to that member.',
    auth: 'scope',
    scope: { action: 'create', kind: 'report' },
    memberBound: true,
    idempotent: true,
    body: z.strictObject({
      name: z.string().trim().min(1).max(200),
      description: z.string().max(2000).optional(),
      figures: z
        .array(
          z.strictObject({
            label: z.string().trim().min(1).max(200),
            resource: z.enum(RESOURCES),
            measure: z.enum(MEASURES),
            field: z.string().trim().min(1).max(100).optional(),
            filter: z.record(z.string().max(100), z.string().max(500)).optional(),
          }),
        )
        .min(1)
        .max(20),
      opId: opIdField,
    }),
    response: z.object({ report: reportSchema, replayed: z.boolean().optional() }),
    errors: [
      'principal_unbound',
      'invalid_json',
      'invalid_body',
      'field_required',
      'field_invalid',
      'field_invalid_enum',
      'unknown_field',
    ],
    handle: async ({ body, ctx, clients, caller }) => {
      await checkReportReferences(body.figures, caller, clients, ctx);
      const write = await callUnary(
        clients.reports,
        'saveReport',
        {
          name: body.name,
          description: body.description,
          opId: body.opId,
          figures: body.figures.map((figure) => ({
            label: figure.label,
            resource: figure.resource,
            measure: figure.measure,
            field: figure.field ?? '',
            filterJson: JSON.stringify(figure.filter ?? {}),
          })),
        },
        ctx,
      );
      return writeResult('report', reportView(write.report), write.meta);
    },
  }),
];
