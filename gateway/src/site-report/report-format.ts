// How a report writes its numbers: always with their unit, the band beside the figure in the same
// unit, and the confidence the band holds at. Shared by the PDF and the CSV so both say the same.
import type { ReportFigure } from './report-content.ts';

/** The unit as a reader writes it (m³, m²); the CSV keeps the API's ASCII form (m3, m2). */
export const unitSymbol = (unit: string): string => unit.replace(/^m3$/, 'm³').replace(/^m2$/, 'm²');

/** One decimal: a volume to 0.1 m³, an area to 0.1 m², a mass to 0.1 t. */
export const amount = (value: number): string => value.toFixed(1);

export const percent = (fraction: number): string => `${(fraction * 100).toFixed(1)} %`;

/** "1234.5 m³". */
export const withUnit = (figure: ReportFigure): string =>
  `${amount(figure.value)} ${unitSymbol(figure.unit)}`;

/** "± 45.2 m³ (3.7 %)", or a sentence when the figure has no band (never a zero band). */
export const bandText = (figure: ReportFigure): string =>
  figure.plusMinus === null
    ? 'no band given'
    : `± ${amount(figure.plusMinus)} ${unitSymbol(figure.unit)} (${percent(figure.relativeFraction ?? 0)})`;

export const confidenceText = (figure: ReportFigure): string =>
  figure.confidence === null ? '' : `${Math.round(figure.confidence * 100)} % confidence`;

/** What each base method means, in the words a client reads. */
export const BASE_METHODS: Record<string, string> = {
  triangulated: 'triangulated between the ground around the toe',
  'fitted-plane': 'a plane fitted to the ground along the boundary',
  'lowest-point': 'a level through the lowest point of the toe',
  elevation: 'a stated fixed elevation',
};

export const baseText = (kind: string): string =>
  BASE_METHODS[kind] ? `${kind}: ${BASE_METHODS[kind]}` : kind;
