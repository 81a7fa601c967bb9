// GET /api/v1/projects/:id/quantities/report: declared here (route, scope, schemas, errors, handler).
// The volume report of the project's newest quantities snapshot, as a document a client reads
// without the API: PDF (picture, figures with bands, base, quality, datum and units, capture date,
// engine), CSV of the same table, or GeoJSON of the regions; built in ../../site-report/.
import { z } from 'zod';
import { defineEndpoint } from '../../endpoint/types.js';
import { REPORT_FORMATS, reportFile } from '../../site-report/report-files.js';
import { projectParams } from './measurements.schemas.js';

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
    'Answers the document itself (Content-Type application/pdf, text/csv or application/geo+json; Content-Disposition names it volume-report-<quantitiesId>.<format>). The PDF holds the site picture with the regions outlined; per region the volume (net), cut, fill, footprint and tonnage, each with its unit, band and confidence, and the base method; the reconstruction quality (photos registered, reprojection error, GSD, dome); the coordinate system, datum and units; the capture date and the engine; and the snapshot’s disclosures. The CSV has one row per region and figure with its unit and band. The GeoJSON has a Feature per region: its stated toe in WGS 84 (geometry null for the automatic whole-capture region) and its figures. A project nothing has been measured on yet answers 404 not_found, as does one outside the token’s projects.',
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
