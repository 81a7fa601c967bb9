// Saved reports (GET /reports, GET /reports/:id, and POST /reports to save one). Every call needs
// a token bound to a member (409 principal_unbound otherwise): a report belongs to a person.
// Owners and Managers read the tenant's reports; anyone else reads the bound member's own, and
// another member's report is not_found, as if it did not exist.
import { REPORT_FIELD_LIMITS } from '@fieldops/contracts';
import { createEffect, eventEffect, checkLengths, listRpcOf, NEWEST_FIRST } from '@fieldops/kit/domain';
import { type RequestContext, AppError, notFound, newId, nowIso } from '@fieldops/kit';
import type { DocumentStore, Filter } from '@fieldops/kit/store';
import { requireMemberId, requireTenantId, runWrite } from '@fieldops/kit/write';
import type { tenantExports } from '@fieldops/proto';
import { REPORTS } from '../collections.ts';
import { emitExportsEvent } from '../events.ts';
import { TENANT_WIDE_REPORT_ROLES, toReportView, type ReportDoc } from './report.model.ts';
import { figuresOf } from './report-figures.ts';

/** The member the token is bound to, or 409 principal_unbound. */
export const requireMember = (ctx: RequestContext): string => requireMemberId(ctx, 'Saved reports');

/** What the caller may read: everything for a tenant-wide role, else its own reports. */
function visibleTo(ctx: RequestContext): Filter {
  const memberId = requireMember(ctx);
  return TENANT_WIDE_REPORT_ROLES.includes(ctx.principal?.role ?? '') ? {} : { ownerMemberId: memberId };
}

export const listReports = listRpcOf(
  REPORTS,
  { filter: (_req: tenantExports.ListReportsRequest, ctx) => visibleTo(ctx), sort: NEWEST_FIRST },
  toReportView,
);

export async function getReport(
  store: DocumentStore,
  req: tenantExports.GetReportRequest,
  ctx: RequestContext,
): Promise<tenantExports.Report> {
  const tenantId = requireTenantId(ctx);
  const filter = visibleTo(ctx);
  const doc = await store.findOne<ReportDoc>(REPORTS, tenantId, { ...filter, id: req.id });
  if (!doc) throw notFound('saved report', req.id);
  return toReportView(doc);
}

export async function saveReport(
  store: DocumentStore,
  req: tenantExports.SaveReportRequest,
  ctx: RequestContext,
): Promise<tenantExports.ReportWrite> {
  const tenantId = requireTenantId(ctx);
  const ownerMemberId = requireMember(ctx);
  checkLengths(REPORT_FIELD_LIMITS, req);
  if (!req.name.trim()) {
    throw new AppError('field_required', 'name is required: say what the report is for.', { field: 'name' });
  }
  const figures = figuresOf(req.figures);
  const { result, meta } = await runWrite(store, ctx, {
    operation: 'saveReport',
    fingerprint: req,
    plan: async () => {
      const now = nowIso();
      const opId = req.opId || ctx.idempotencyKey;
      const doc: ReportDoc = {
        id: newId('rpt'),
        tenantId,
        version: 1,
        name: req.name.trim(),
        ...(req.description ? { description: req.description } : {}),
        figures,
        ownerMemberId,
        createdAt: now,
        updatedAt: now,
        ...(opId ? { opId } : {}),
      };
      return {
        ops: [
          { op: 'insert', collection: REPORTS, doc },
          emitExportsEvent(ctx, 'report.saved', { kind: 'report', id: doc.id }, { name: doc.name }),
        ],
        result: doc,
        created: true,
        rehearsal: {
          willDo: `Save the report "${doc.name}" with ${figures.length} figure(s) for this member.`,
          effects: [createEffect('report', doc.id, []), eventEffect('report.saved', doc.id)],
        },
      };
    },
  });
  return { report: toReportView(result), meta };
}
