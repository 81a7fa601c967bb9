// Planning POST /projects: the customer's canonical name from crm, the project at the lifecycle's
// first status, its site, and a linked deal opened in crm. The deal lives in crm's store, so it is
// opened before the project commits; a keyed retry gets the same deal back (crm.grpc.ts).
import { DEAL_STAGE_MACHINE, PROJECT_FIELD_LIMITS, PROJECT_LIFECYCLE_MACHINE } from '@fieldops/contracts';
import { setFields, checkLengths, cleanText, compact } from '@fieldops/kit/domain';
import { type RequestContext, AppError, newId, nowIso } from '@fieldops/kit';
import type { WritePlan } from '@fieldops/kit/write';
import type { projects } from '@fieldops/proto';
import { PROJECTS, SITES } from '../collections.ts';
import type { CrmPort } from '../crm/crm.port.ts';
import { createEffect, eventEffect } from '../effects.ts';
import { emitProjectsEvent } from '../events.ts';
import { geoOf, requiredText, verticalOf } from './project-fields.ts';
import { EMPTY_CONTENT, PROJECT_CHANGE_FIELDS, type ProjectDoc } from './project.model.ts';
import { toProjectView } from './project.view.ts';
import { SITE_CHANGE_FIELDS, toSiteView, type SiteDoc } from './site.model.ts';

/** What a create answers, and what a replay of it answers again. */
export type CreatedProject = Omit<projects.ProjectCreation, 'meta'>;

/** Opens the deal at most once per call, however often the plan is re-run. */
export type DealOpener = () => Promise<projects.LinkedDeal>;

export async function planCreateProject(
  crm: CrmPort,
  openDeal: DealOpener,
  tenantId: string,
  req: projects.CreateProjectRequest,
  ctx: RequestContext,
): Promise<WritePlan<CreatedProject>> {
  checkLengths(PROJECT_FIELD_LIMITS, req);
  const customerId = requiredText(req.customerId, 'customerId', 'the customer the project is for');
  requiredText(req.customerName, 'customerName', "the customer's name, as the caller knows it");
  const vertical = verticalOf(req.vertical ?? defaultVertical(ctx));
  const geo = geoOf(req.geo);
  // The caller's spelling is only a cross-check for people; crm's name is the record's.
  const { name: customerName, version: customerVersion } = await crm.customerNameAt(customerId, ctx);
  const deal = ctx.dryRun ? plannedDeal(ctx) : await openDeal();

  const now = nowIso();
  const projectId = newId('proj');
  const siteAddress = cleanText(req.siteAddress);
  const accessNotes = cleanText(req.accessNotes);
  const site: SiteDoc = compact({
    id: newId('site'),
    tenantId,
    version: 1,
    customerId,
    projectId,
    address: siteAddress,
    geo,
    accessNotes,
    createdAt: now,
    updatedAt: now,
  });
  const doc: ProjectDoc = compact({
    id: projectId,
    tenantId,
    version: 1,
    customerId,
    customerName,
    customerVersion,
    name: cleanText(req.name) ?? siteAddress ?? customerName,
    siteId: site.id,
    siteAddress,
    geo,
    accessNotes,
    vertical,
    ownerName: cleanText(req.ownerName),
    status: PROJECT_LIFECYCLE_MACHINE.initial,
    dealId: deal.id,
    content: { ...EMPTY_CONTENT },
    createdAt: now,
    updatedAt: now,
    statusChangedAt: now,
    opId: ctx.idempotencyKey || cleanText(req.opId),
  });
  const result: CreatedProject = { project: toProjectView(doc), site: toSiteView(site), deal };
  return {
    ops: [
      { op: 'insert', collection: PROJECTS, doc },
      { op: 'insert', collection: SITES, doc: site },
      emitProjectsEvent(ctx, 'project.created', { kind: 'project', id: doc.id }, { ...result }),
      emitProjectsEvent(ctx, 'site.created', { kind: 'site', id: site.id }, { site: result.site }),
    ],
    result,
    created: true,
    rehearsal: {
      willDo: `Create project "${doc.name}" (${vertical}) for customer "${customerName}", its site${siteAddress ? ` at ${siteAddress}` : ''}, and an unpriced deal in crm.`,
      effects: [
        createEffect('project', doc.id, setFields(doc, PROJECT_CHANGE_FIELDS)),
        createEffect('site', site.id, setFields(site, SITE_CHANGE_FIELDS)),
        createEffect('deal', '', [{ field: 'customerId', to: customerId }]),
        eventEffect('project.created', doc.id),
        eventEffect('site.created', site.id),
      ],
    },
  };
}

function defaultVertical(ctx: RequestContext): string {
  const vertical = ctx.tenant?.defaultVertical;
  if (!vertical) {
    throw new AppError('internal', 'The request reached the service without the tenant default vertical.');
  }
  return vertical;
}

/** A dry run opens no deal; the rehearsal shows the one that would be opened. */
const plannedDeal = (ctx: RequestContext): projects.LinkedDeal => ({
  id: '',
  stage: DEAL_STAGE_MACHINE.initial,
  value: { cents: 0, currency: ctx.tenant?.currency ?? '' },
});
