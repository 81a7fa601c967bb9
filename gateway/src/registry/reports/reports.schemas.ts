// Saved reports (ENDPOINTS rows 45–46, plus POST /reports to save one: the spec lists only the
// reads). A report is a definition only: the figures it watches and the queries behind them, never
// a value. Every call needs a token bound to a member (409 principal_unbound). Served by
// exports.ReportService.
// The schemas and helpers the endpoint files of this folder share; each endpoint is declared in
// the file named after its path.
import type { tenantExports } from '@fieldops/proto';
import { AppError } from '@fieldops/kit';
import type { Caller } from '../../identity/model.ts';
import type { GatherRule } from '../../endpoint/types.ts';
import { figureSchema, reportSchema } from './reports.gen.ts';

// A report's and a figure's shapes are derived from exports.proto (npm run gen): a figure's
// filter_json (@json) is its filter object over HTTP, parsed by reportView.
export { figureSchema, reportSchema };

export function reportView(report: tenantExports.Report | undefined): Record<string, unknown> {
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

export const UNBOUND =
  'Needs a token bound to a member (409 principal_unbound). A Manager (or Owner) token sees the tenant’s reports; any other token sees its member’s own.';

/**
 * A definition holds no values, but a figure's filter may name a project: a project-restricted
 * token is shown only the reports that name none outside its projects (docs/decisions.md,
 * "Cross-cutting reads"), so a project's existence is not disclosed through a report.
 */
export const REPORT_GATHERS: GatherRule = { kinds: ['report'], byKind: 'require', byProject: 'filter' };

export function reportVisibleTo(caller: Caller | null, view: Record<string, unknown>): boolean {
  const projectIds = caller?.projectIds;
  if (!projectIds) return true;
  const figures = (view.figures ?? []) as { filter: Record<string, string> }[];
  return figures.every(({ filter }) => !filter.projectId || projectIds.includes(filter.projectId));
}

export const reportNotFound = (id: string): AppError =>
  new AppError('not_found', `No report with id ${id} exists in this tenant.`);
