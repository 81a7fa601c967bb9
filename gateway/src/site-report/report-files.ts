// A project's volume report in one of its formats, as the bytes to answer: the PDF with the site's
// picture (drawn from the scene's cloud when it is small enough, else a sentence why not), the CSV
// of the same table, or the GeoJSON of the regions. The report endpoint and the client page both
// answer through here.
import type { RequestContext } from '@fieldops/kit';
import type { ServiceClients } from '../clients.ts';
import { quantityReport, type QuantityReport } from './report-content.ts';
import { reportCsv } from './report-csv.ts';
import { reportGeoJson } from './report-geojson.ts';
import { reportPdf } from './report-pdf.ts';
import { canPicture, scenePicture } from './scene-picture.ts';

export const REPORT_FORMATS = {
  pdf: 'application/pdf',
  csv: 'text/csv',
  geojson: 'application/geo+json',
} as const;
export type ReportFormat = keyof typeof REPORT_FORMATS;

export interface ReportFile {
  contentType: string;
  filename: string;
  bytes: Uint8Array;
}

async function pdfOf(clients: ServiceClients, report: QuantityReport, ctx: RequestContext): Promise<Buffer> {
  const scene = report.scene;
  if (!scene)
    return reportPdf(report, null, 'No picture: the run that measured this snapshot stored no scene.');
  if (!canPicture(scene))
    return reportPdf(report, null, 'No picture: the scene has no point cloud small enough to draw here.');
  return reportPdf(report, await scenePicture(clients, scene, report.snapshot, ctx), '');
}

export async function reportFile(
  clients: ServiceClients,
  projectId: string,
  format: ReportFormat,
  ctx: RequestContext,
): Promise<ReportFile> {
  const report = await quantityReport(clients, projectId, ctx);
  const filename = `volume-report-${report.quantitiesId}.${format}`;
  const bytes =
    format === 'pdf'
      ? await pdfOf(clients, report, ctx)
      : Buffer.from(
          format === 'csv' ? reportCsv(report) : `${JSON.stringify(reportGeoJson(report), null, 2)}\n`,
          'utf8',
        );
  // Text is UTF-8 (region names, the datum's sentence); the media type says so.
  const contentType = format === 'csv' ? `${REPORT_FORMATS.csv}; charset=utf-8` : REPORT_FORMATS[format];
  return { contentType, filename, bytes };
}
