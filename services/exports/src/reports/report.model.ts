// A saved report: a definition only (the figures it watches and the queries behind them); no
// value is ever computed or stored here. Private to the member who saved it; the roles in
// TENANT_WIDE_REPORT_ROLES read every report of the tenant.
import type { Complete } from '@fieldops/kit/domain';
import type { ReportMeasure, ReportResource } from '@fieldops/contracts';
import type { Doc } from '@fieldops/kit/store';
import type { tenantExports } from '@fieldops/proto';

/** Roles that see the whole tenant's saved reports; every other role sees its member's own. */
export const TENANT_WIDE_REPORT_ROLES: readonly string[] = ['Owner', 'Manager'];

export interface FigureDef {
  label: string;
  resource: ReportResource;
  measure: ReportMeasure;
  /** The numeric field summed or averaged; absent for count. */
  field?: string;
  /** The list filters, as the list endpoint takes them. */
  filter: Record<string, string>;
}

export interface ReportDoc extends Doc {
  name: string;
  description?: string;
  figures: FigureDef[];
  ownerMemberId: string;
  createdAt: string;
  updatedAt: string;
  opId?: string;
}

export function toReportView(doc: ReportDoc): tenantExports.Report {
  return {
    id: doc.id,
    name: doc.name,
    description: doc.description ?? '',
    figures: doc.figures.map((figure) => ({
      label: figure.label,
      resource: figure.resource,
      measure: figure.measure,
      field: figure.field ?? '',
      filterJson: JSON.stringify(figure.filter),
    })),
    ownerMemberId: doc.ownerMemberId,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    opId: doc.opId ?? '',
  } satisfies Complete<tenantExports.Report>;
}
