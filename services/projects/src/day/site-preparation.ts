import { compact, type Complete } from '@fieldops/kit/domain';
import { type RequestContext, nowIso } from '@fieldops/kit';
import { requireTenantId } from '@fieldops/kit/write';
import type { planning } from '@fieldops/proto';
import { SITE_PREPARATION } from '../planning.collections.ts';
import { emitPlanningEvent } from '../planning.events.ts';
import { loadProject } from '../projects/projects.service.ts';
import { type Doc, type DocumentStore, upsertOp } from '@fieldops/kit/store';

export interface SitePreparationDoc extends Doc {
  imageryCapturedAt?: string;
  roofMarked: boolean;
  draftFlightPlanId?: string;
  flightPlanReviewedBy?: string;
  flightPlanReviewedAt?: string;
  updatedAt: string;
}

export function toPreparationView(
  projectId: string,
  doc: SitePreparationDoc | null,
): planning.SitePreparation {
  return compact({
    projectId,
    imageryCapturedAt: doc?.imageryCapturedAt,
    roofMarked: doc?.roofMarked ?? false,
    draftFlightPlanId: doc?.draftFlightPlanId,
    flightPlanReviewedBy: doc?.flightPlanReviewedBy,
    flightPlanReviewedAt: doc?.flightPlanReviewedAt,
    updatedAt: doc?.updatedAt ?? '',
  } satisfies Complete<planning.SitePreparation>);
}

export async function reportSitePreparation(
  store: DocumentStore,
  req: planning.ReportSitePreparationRequest,
  ctx: RequestContext,
): Promise<planning.SitePreparation> {
  const tenantId = requireTenantId(ctx);
  await loadProject(store, tenantId, req.projectId);
  const current = await store.get<SitePreparationDoc>(SITE_PREPARATION, tenantId, req.projectId);
  const doc: SitePreparationDoc = compact({
    id: req.projectId,
    tenantId,
    version: (current?.version ?? 0) + 1,
    imageryCapturedAt: req.imageryCapturedAt,
    roofMarked: req.roofMarked,
    draftFlightPlanId: req.draftFlightPlanId,
    flightPlanReviewedBy: req.flightPlanReviewedBy,
    flightPlanReviewedAt: req.flightPlanReviewedAt,
    updatedAt: nowIso(),
  });
  await store.commit(tenantId, [
    upsertOp(SITE_PREPARATION, doc, current),
    emitPlanningEvent(
      ctx,
      'site_preparation.reported',
      { kind: 'project', id: req.projectId },
      {
        roofMarked: doc.roofMarked,
        draftFlightPlan: Boolean(doc.draftFlightPlanId),
      },
    ),
  ]);
  return toPreparationView(req.projectId, doc);
}
