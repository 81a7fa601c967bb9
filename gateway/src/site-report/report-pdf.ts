// The volume report as a PDF a client reads without the API (pdfkit, docs/decisions.md): the
// site's picture with the measured regions outlined, then per region its volume, cut, fill and
// footprint (and tonnage), each with its unit, its band and the band's confidence, and the base it
// was measured against; then the capture's quality, its coordinate system, datum and units, the
// capture date, the engine, and every disclosure of the snapshot.
import type PDFDocument from 'pdfkit';
import {
  REPORT_FIELDS,
  type QuantityReport,
  type ReportFigure,
  type ReportRegion,
} from './report-content.ts';
import { bandText, baseText, confidenceText, withUnit } from './report-format.ts';
import { outlineColour } from './site-image.ts';
import type { SiteImage } from './site-image.ts';

type Doc = InstanceType<typeof PDFDocument>;

const MARGIN = 50;
const GREY = '#555555';

/** pdfkit's standard fonts write WinAnsi: characters outside it are written as their nearest ASCII. */
const plain = (text: string): string =>
  text
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\u2212/g, '-')
    .replace(/[\u2013\u2014]/g, '-')
    .replace(/\u00d7/g, 'x');

const BASIS: Record<string, string> = {
  'stated-regions': 'the regions stated for this project',
  'automatic-whole-capture':
    'the whole capture above a plane fitted to its edges (no regions were stated; not a stated stockpile)',
};

function heading(doc: Doc, text: string): void {
  doc.moveDown(0.6).font('Helvetica-Bold').fontSize(13).fillColor('black').text(plain(text));
  doc.moveDown(0.2).font('Helvetica').fontSize(10);
}

/** "Label: value" lines, the label in grey. */
function facts(doc: Doc, lines: readonly (readonly [string, string])[]): void {
  for (const [label, value] of lines) {
    if (!value) continue;
    doc.font('Helvetica').fontSize(10).fillColor(GREY).text(`${label}: `, { continued: true });
    doc.fillColor('black').text(plain(value));
  }
}

function picture(doc: Doc, image: SiteImage | null, note: string): void {
  if (!image) {
    doc.fillColor(GREY).text(plain(note)).fillColor('black');
    return;
  }
  const width = doc.page.width - 2 * MARGIN;
  const height = Math.min(300, (width * image.height) / image.width);
  // Placed at an explicit position so the caption goes below it (the fitted box is the image's own
  // aspect, so the picture fills its height).
  const top = doc.y;
  doc.image(image.png, MARGIN, top, { fit: [width, height], align: 'center' });
  doc.x = MARGIN;
  doc.y = top + height + 4;
  doc
    .fontSize(8)
    .fillColor(GREY)
    .text(
      `Seen from above, coloured by height from ${image.minZ.toFixed(1)} m (blue) to ${image.maxZ.toFixed(1)} m (red); each region outlined in its colour below.`,
    )
    .fillColor('black')
    .fontSize(10);
}

/** One region's figures: a row per figure, its value with unit, band with unit, confidence. */
function figureTable(doc: Doc, figures: Partial<Record<string, ReportFigure>>): void {
  const x = doc.page.margins.left;
  const columns = [x, x + 110, x + 220, x + 380];
  for (const { key, label } of REPORT_FIELDS) {
    const f = figures[key];
    if (!f) continue;
    if (doc.y > doc.page.height - MARGIN - 20) doc.addPage();
    const y = doc.y;
    doc.text(label, columns[0]!, y, { width: 105 });
    doc.text(withUnit(f), columns[1]!, y, { width: 105 });
    doc.text(bandText(f), columns[2]!, y, { width: 155 });
    doc.text(confidenceText(f), columns[3]!, y, { width: 120 });
    doc.x = x;
    doc.moveDown(0.15);
  }
}

function regionSection(doc: Doc, region: ReportRegion, index: number): void {
  if (doc.y > doc.page.height - MARGIN - 140) doc.addPage();
  doc.moveDown(0.5);
  const y = doc.y;
  doc.rect(doc.page.margins.left, y + 2, 9, 9).fill(outlineColour(index));
  doc
    .fillColor('black')
    .font('Helvetica-Bold')
    .fontSize(11)
    .text(plain(`${region.name} (${region.id})`), doc.page.margins.left + 15, y);
  doc.x = doc.page.margins.left;
  doc.font('Helvetica').fontSize(10);
  facts(doc, [
    ['Base', baseText(region.base)],
    ['Material', region.material],
  ]);
  doc.moveDown(0.2);
  figureTable(doc, region.figures);
}

function qualitySection(doc: Doc, report: QuantityReport): void {
  heading(doc, 'Capture and quality');
  const q = report.quality;
  facts(doc, [
    ['Captured', `${report.captureDate.value || 'not stated'} (${report.captureDate.source})`],
    ['Engine', report.engine],
    ['Measured', report.measuredAt],
    ...(q
      ? ([
          ['Photos registered', `${q.photosRegistered} of ${q.photosGiven}`],
          ['Reprojection error (mean)', `${q.meanReprojectionErrorPx.toFixed(2)} px`],
          ['Ground sample distance', q.gsdM === null ? 'not known' : `${(q.gsdM * 100).toFixed(2)} cm/px`],
          ['Alignment to photo positions (RMS)', `${q.alignmentRmseM.toFixed(3)} m`],
          [
            'Dome (model curvature)',
            q.domeCurvaturePerM === null ? 'none measured' : `${q.domeCurvaturePerM.toExponential(2)} 1/m`,
          ],
        ] as const)
      : ([
          ['Photos', 'none: a point cloud uploaded as it was (no photos registered, no reprojection error)'],
        ] as const)),
  ]);
  for (const warning of q?.warnings ?? []) doc.fillColor(GREY).text(plain(`Warning: ${warning}`));
  doc.fillColor('black');
  heading(doc, 'Coordinates, datum and units');
  facts(doc, [
    ['Coordinate system', report.coordinateSystem],
    ['Datum', report.datum],
    ['Horizontal unit', report.horizontalUnit],
    ['Vertical unit', report.verticalUnit],
    ['Heights', report.heightDatum],
    ['Figures in', 'm³ (volumes), m² (footprints), t (tonnage)'],
  ]);
}

/** The document's bytes once doc.end() is called (listening from the start: pdfkit streams as it writes). */
function collect(doc: Doc): Promise<Buffer> {
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  return new Promise((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}

/** The PDF's bytes; `image` null with `pictureNote` saying why there is no picture. */
export async function reportPdf(
  report: QuantityReport,
  image: SiteImage | null,
  pictureNote: string,
): Promise<Buffer> {
  // Loaded on the first report: pdfkit and its fonts are a quarter of a second of the gateway's
  // start, which most gateways would pay for reports they never write.
  const { default: PdfDocument } = await import('pdfkit');
  const doc = new PdfDocument({
    size: 'A4',
    margin: MARGIN,
    info: {
      Title: plain(`Volume report: ${report.projectName}`),
      Subject: `Quantities snapshot ${report.quantitiesId}`,
      Creator: 'fieldops',
    },
  });
  const done = collect(doc);
  doc
    .font('Helvetica-Bold')
    .fontSize(18)
    .text(plain(`Volume report: ${report.projectName}`));
  doc.font('Helvetica').fontSize(10).moveDown(0.3);
  facts(doc, [
    ['Quantities snapshot', `${report.quantitiesId} (run ${report.runId}, capture ${report.captureId})`],
    ['Measured', report.measuredAt],
    ['Captured', report.captureDate.value],
    ['Engine', report.engine],
    ['What was measured', BASIS[report.basis] ?? report.basis],
  ]);
  doc.moveDown(0.5);
  picture(doc, image, pictureNote);
  heading(doc, 'Regions');
  doc
    .fillColor(GREY)
    .text(
      `Each figure is given with its band: the true value lies within it with the stated confidence (${Math.round(report.confidence * 100)} %).`,
    )
    .fillColor('black');
  report.regions.forEach((region, index) => regionSection(doc, region, index));
  if (report.regions.length > 1) {
    doc.moveDown(0.5).font('Helvetica-Bold').fontSize(11).text('Site total');
    doc.font('Helvetica').fontSize(10);
    figureTable(doc, report.rollup);
  }
  qualitySection(doc, report);
  if (report.disclosures.length) {
    heading(doc, 'Disclosures');
    for (const line of report.disclosures) doc.text(plain(`- ${line}`)).moveDown(0.15);
  }
  doc.end();
  return done;
}
