// GET /api/v1/reports, POST /api/v1/reports: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./reports.schemas.ts; listed by ../families.gen.ts.
import {
  REPORT_FIELD_LIMITS,
  REPORT_FIGURE_LIMITS,
  REPORT_FIGURES_MAX,
  REPORT_MEASURES,
  REPORT_RESOURCES,
} from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { opIdField, pageBody, pageQuery, pageRequest, pageResponse } from '../../endpoint/common.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { writeResult } from '../../endpoint/write-result.ts';
import { checkReportReferences } from '../../endpoint/report-references.ts';
import { REPORT_GATHERS, reportSchema, reportView, reportVisibleTo, UNBOUND } from './reports.schemas.ts';

export const listReports = defineEndpoint({
  operationId: 'listReports',
  method: 'GET',
  path: '/reports',
  tag: 'Reports',
  summary: 'Saved report definitions, newest first (no values are computed).',
  description: UNBOUND,
  auth: 'scope',
  scope: { action: 'read', kind: 'report' },
  gathers: REPORT_GATHERS,
  memberBound: true,
  list: true,
  query: z.strictObject({ ...pageQuery }),
  response: pageResponse(reportSchema),
  errors: ['principal_unbound'],
  handle: async ({ query, ctx, clients, caller }) => {
    const page = await callUnary(clients.reports, 'listReports', { page: pageRequest(query) }, ctx);
    const items = page.items.map(reportView).filter((view) => reportVisibleTo(caller, view));
    return { body: pageBody({ items, nextCursor: page.nextCursor }) };
  },
});

export const saveReport = defineEndpoint({
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
    name: z.string().trim().min(1).max(REPORT_FIELD_LIMITS.name),
    description: z.string().max(REPORT_FIELD_LIMITS.description).optional(),
    figures: z
      .array(
        z.strictObject({
          label: z.string().trim().min(1).max(REPORT_FIGURE_LIMITS.label),
          resource: z.enum(REPORT_RESOURCES),
          measure: z.enum(REPORT_MEASURES),
          field: z.string().trim().min(1).max(REPORT_FIGURE_LIMITS.field).optional(),
          filter: z
            .record(
              z.string().max(REPORT_FIGURE_LIMITS.filterKey),
              z.string().max(REPORT_FIGURE_LIMITS.filterValue),
            )
            .optional(),
        }),
      )
      .min(1)
      .max(REPORT_FIGURES_MAX),
    opId: opIdField,
  }),
  response: z.object({ report: reportSchema, replayed: z.boolean().optional() }),
  errors: ['principal_unbound'],
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
});
