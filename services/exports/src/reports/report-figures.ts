// Checks the figures of a report being saved (the gateway checks shapes first; a direct gRPC
// caller gets the same refusals): a known list, a known measure, a field for sum and average,
// and filters that are a flat object of strings.
import {
  REPORT_FIGURE_LIMITS as LIMITS,
  REPORT_FIGURES_MAX,
  REPORT_MEASURES,
  REPORT_RESOURCES,
} from '@fieldops/contracts';
import { checkEachLength, checkLengths } from '@fieldops/kit/domain';
import { AppError } from '@fieldops/kit';
import type { tenantExports } from '@fieldops/proto';
import type { FigureDef } from './report.model.ts';

const invalid = (field: string, message: string, extras: Record<string, unknown> = {}) =>
  new AppError('field_invalid', message, { field, ...extras });

/** The lengths the gateway states for one figure, named as its paths name them (figures.0.label). */
function checkFigureLimits(
  figure: tenantExports.ReportFigure,
  filter: Record<string, string>,
  index: number,
) {
  const entry = `figures.${index}`;
  checkLengths({ label: LIMITS.label, field: LIMITS.field }, figure, entry);
  const longKey = Object.keys(filter).find((key) => key.length > LIMITS.filterKey);
  if (longKey !== undefined) {
    throw invalid(`${entry}.filter.${longKey}`, `A filter name is at most ${LIMITS.filterKey} characters.`);
  }
  checkEachLength(`${entry}.filter`, LIMITS.filterValue, filter);
}

function filterOf(json: string, field: string): Record<string, string> {
  if (!json) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw invalid(field, `${field} must be an object of list filters, e.g. {"status": "New"}.`);
  }
  const ok =
    parsed !== null &&
    typeof parsed === 'object' &&
    !Array.isArray(parsed) &&
    Object.values(parsed).every((value) => typeof value === 'string');
  if (!ok)
    throw invalid(field, `${field} must be an object whose values are strings, e.g. {"status": "New"}.`);
  return parsed as Record<string, string>;
}

function figureOf(figure: tenantExports.ReportFigure, index: number): FigureDef {
  const at = `figures[${index}]`;
  const label = figure.label.trim();
  if (!label)
    throw new AppError('field_required', `${at}.label is required: name what the figure shows.`, {
      field: `${at}.label`,
    });
  const resource = REPORT_RESOURCES.find((name) => name === figure.resource);
  if (!resource) {
    throw new AppError(
      'field_invalid_enum',
      `${at}.resource must be one of ${REPORT_RESOURCES.join(', ')}.`,
      {
        field: `${at}.resource`,
        allowed: REPORT_RESOURCES,
      },
    );
  }
  const measure = REPORT_MEASURES.find((name) => name === figure.measure);
  if (!measure) {
    throw new AppError('field_invalid_enum', `${at}.measure must be one of ${REPORT_MEASURES.join(', ')}.`, {
      field: `${at}.measure`,
      allowed: REPORT_MEASURES,
    });
  }
  const field = figure.field.trim();
  if (measure !== 'count' && !field) {
    throw new AppError('field_required', `${at}.field is required for ${measure}: name the numeric field.`, {
      field: `${at}.field`,
    });
  }
  if (measure === 'count' && field)
    throw invalid(`${at}.field`, `${at}.field is only for sum and average; leave it out for count.`);
  const filter = filterOf(figure.filterJson, `${at}.filter`);
  checkFigureLimits(figure, filter, index);
  return { label, resource, measure, ...(field ? { field } : {}), filter };
}

export function figuresOf(figures: readonly tenantExports.ReportFigure[]): FigureDef[] {
  if (figures.length === 0)
    throw new AppError('field_required', 'figures is required: a report watches at least one figure.', {
      field: 'figures',
    });
  if (figures.length > REPORT_FIGURES_MAX)
    throw invalid('figures', `A report watches at most ${REPORT_FIGURES_MAX} figures.`);
  return figures.map(figureOf);
}
