// The report's table as CSV (RFC 4180): one row per region and figure, each with its unit, its
// band in the same unit, the band as a fraction, and the confidence; the site total last. Long
// rather than wide so every number sits beside its own unit column.
import { REPORT_FIELDS, type QuantityReport, type ReportFigure, type ReportField } from './report-content.ts';

const HEADER = [
  'quantities_id',
  'region_id',
  'region_name',
  'base',
  'figure',
  'value',
  'unit',
  'plus_minus',
  'band_unit',
  'relative_band',
  'confidence',
];

/** A field quoted when it holds a comma, quote or line break; a leading =+-@ is defused for spreadsheets. */
const cell = (value: string | number): string => {
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

function rows(
  report: QuantityReport,
  id: string,
  name: string,
  base: string,
  figures: Partial<Record<ReportField, ReportFigure>>,
): string[][] {
  return REPORT_FIELDS.flatMap(({ key }) => {
    const f = figures[key];
    if (!f) return [];
    return [
      [
        report.quantitiesId,
        id,
        name,
        base,
        key,
        String(f.value),
        f.unit,
        f.plusMinus === null ? '' : String(f.plusMinus),
        f.plusMinus === null ? '' : f.unit,
        f.relativeFraction === null ? '' : String(f.relativeFraction),
        f.confidence === null ? '' : String(f.confidence),
      ],
    ];
  });
}

export function reportCsv(report: QuantityReport): string {
  const table = [
    HEADER,
    ...report.regions.flatMap((r) => rows(report, r.id, r.name, r.base, r.figures)),
    ...rows(report, 'site-total', 'Site total', '', report.rollup),
  ];
  return `${table.map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`;
}
