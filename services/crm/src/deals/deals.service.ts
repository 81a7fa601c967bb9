// Deals: the pipeline from first enquiry to invoice. Reads go straight to the store; every write
// is planned (deal-*.plan.ts, stage moves through deal-trigger.ts) and applied through runWrite,
// which makes it exactly-once by key, dry-runnable, and atomic with its timeline entry and event.
import { DEAL_STAGES, DEAL_STAGE_MACHINE } from '@fieldops/contracts';
import type { RequestContext } from '@fieldops/kit';
import type { Condition, DocumentStore, Filter } from '@fieldops/kit/store';
import { requireTenantId, withContextTenant, writeRpcOf } from '@fieldops/kit/write';
import { deals } from '@fieldops/proto';
import { DEALS } from '../collections.ts';
import { itemJson, listPage, getOrNotFound, NEWEST_FIRST } from '@fieldops/kit/domain';
import { listDealActivity } from './deal-activity.ts';
import { planAdvanceDeal } from './deal-advance.plan.ts';
import { planCreateDeal, tenantCurrency } from './deal-create.plan.ts';
import { planLoseDeal } from './deal-lose.plan.ts';
import { toDealView, type DealDoc } from './deal.model.ts';
import { pipelineSummary } from './pipeline-summary.ts';

/** Stages the list keeps: the stage filter, narrowed by open (both must hold when both are sent). */
function stageCondition(req: deals.ListDealsRequest): Condition | undefined {
  const byOpen =
    req.open === undefined
      ? undefined
      : DEAL_STAGES.filter((stage) => DEAL_STAGE_MACHINE.isIn('open', stage) === req.open);
  if (req.stage) return byOpen && !(byOpen as string[]).includes(req.stage) ? { $in: [] } : req.stage;
  return byOpen ? { $in: byOpen } : undefined;
}

function dealFilter(req: deals.ListDealsRequest): Filter {
  const filter: Filter = {};
  const stage = stageCondition(req);
  if (stage !== undefined) filter['stage'] = stage;
  if (req.customerId) filter['customerId'] = req.customerId;
  return filter;
}

/** A deal in items_json; one function for the process, so the store remembers its renderings. */
const DEAL_JSON = itemJson(toDealView, deals.Deal);

/** Newest first; keyset paging; the tenant's pipeline summary rides along. */
export async function listDeals(
  store: DocumentStore,
  req: deals.ListDealsRequest,
  ctx: RequestContext,
): Promise<deals.DealPage> {
  const tenantId = requireTenantId(ctx);
  const [page, pipeline] = await Promise.all([
    listPage(
      store,
      DEALS,
      tenantId,
      req.page,
      { filter: dealFilter(req), sort: NEWEST_FIRST },
      toDealView,
      DEAL_JSON,
    ),
    pipelineSummary(store, tenantId, tenantCurrency(ctx)),
  ]);
  return { ...page, pipeline };
}

export async function getDeal(
  store: DocumentStore,
  req: deals.GetDealRequest,
  ctx: RequestContext,
): Promise<deals.DealDetail> {
  const tenantId = requireTenantId(ctx);
  const doc = await getOrNotFound<DealDoc>(store, DEALS, tenantId, req.id, 'deal');
  return {
    deal: toDealView(doc),
    activity: await listDealActivity(store, tenantId, doc.id),
    legalTriggers: DEAL_STAGE_MACHINE.legalTriggers(doc.stage),
  };
}

export const createDeal = writeRpcOf('createDeal', 'deal', planCreateDeal);

export const advanceDeal = writeRpcOf('advanceDeal', 'deal', withContextTenant(planAdvanceDeal));

export const loseDeal = writeRpcOf('loseDeal', 'deal', withContextTenant(planLoseDeal));
