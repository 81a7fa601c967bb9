// GET /api/v1/projects/:id/quantities/report: declared here (route, scope, schemas, errors, handler).
// The volume report of the project's newest quantities snapshot, as a document a client reads
// without the API: PDF (picture, figures with bands, base, quality, datum and units, capture date,
// engine), CSV of the same table, or GeoJSON of the regions; built in ../../site-report/.
import { z } from 'zod';
import { defineEndpoint } from '../../endpoint/types.ts';
import { REPORT_FORMATS, reportFile } from '../../site-report/report-files.ts';
import { projectParams } from './measurements.schemas.ts';

const FORMATS = Object.keys(REPORT_FORMATS) as [
  keyof typeof REPORT_FORMATS,
  ...(keyof typeof REPORT_FORMATS)[],
];

export const getQuantitiesReport = defineEndpoint({
  operationId: 'getQuantitiesReport',
  method: 'GET',
  path: '/projects/:id/quantities/report',
  tag: 'Deliverables and measurements',
  summary:
    'The volume report of the newest quantities snapshot, as a document to hand over: PDF, CSV of its table, or GeoJSON of its regions.',
  description:
    'Answers the document itself (application/pdf, text/csv or application/geo+json, named volume-report-<quantitiesId>.<format>). The PDF: the site picture with the regions outlined; per region net volume, cut, fill, footprint and tonnage with unit, band and confidence, and the base method; reconstruction quality; coordinate system, datum and units; capture date, engine and disclosures. The CSV: one row per region and figure. The GeoJSON: a Feature per region (its WGS 84 toe, null for the automatic region) with its figures. 404 not_found when nothing is measured yet or the project is outside the token.',
  auth: 'scope',
  scope: { action: 'read', kind: 'deliverable' },
  params: projectParams,
  projectParam: 'id',
  query: z.strictObject({
    format: z.enum(FORMATS).default('pdf').describe('pdf (the default), csv or geojson.'),
  }),
  response: z.object({}),
  produces: Object.values(REPORT_FORMATS),
  handle: async ({ params, query, ctx, clients }) => ({
    body: {},
    file: await reportFile(clients, params.id, query.format, ctx),
  }),
});
