// Planning POST /deals: an unpriced deal at the machine's first stage, for a customer of the
// tenant, with its first timeline entry and deal.created, together.
import { DEAL_FIELD_LIMITS, DEAL_STAGE_MACHINE } from '@fieldops/contracts';
import { checkLengths, setFields, cleanText, compact, getOrNotFound } from '@fieldops/kit/domain';
import { type RequestContext, AppError, newId, nowIso } from '@fieldops/kit';
import type { DocumentStore, WriteOp } from '@fieldops/kit/store';
import type { WritePlan } from '@fieldops/kit/write';
import type { common, deals } from '@fieldops/proto';
import { CUSTOMERS, DEALS } from '../collections.ts';
import type { CustomerDoc } from '../customers/customer.model.ts';
import { createEffect, eventEffect } from '../effects.ts';
import { emitCrmEvent } from '../events.ts';
import { insertActivity } from '../customers/activity.ts';
import { newDealActivity } from './deal-activity.ts';
import { DEAL_CHANGE_FIELDS, toDealView, type DealDoc } from './deal.model.ts';

/** What a new deal is made from: by POST /deals, or by lead conversion. */
export interface NewDealFields {
  customerId: string;
  contactId?: string;
  expectedCloseAt?: string;
  leadId?: string;
  opId?: string;
}

/** Why the deal was opened when it was not a direct POST /deals, for its first timeline entry. */
export interface NewDealOrigin {
  cause?: string;
}

/**
 * The tenant's persisted currency: every deal is valued in it (spec: created as zero in the
 * tenant's persisted currency). The gateway always sends it; its absence is a fault of ours.
 */
export function tenantCurrency(ctx: RequestContext): string {
  const currency = ctx.tenant?.currency;
  if (!currency)
    throw new AppError('internal', 'The request reached the service without the tenant currency.');
  return currency;
}

export async function planCreateDeal(
  store: DocumentStore,
  tenantId: string,
  req: deals.CreateDealRequest,
  ctx: RequestContext,
): Promise<WritePlan<deals.Deal>> {
  checkLengths(DEAL_FIELD_LIMITS, req);
  const customerId = cleanText(req.customerId);
  if (!customerId) {
    throw new AppError('field_required', 'customerId is required: the customer the deal is with.', {
      field: 'customerId',
    });
  }
  const customer = await getOrNotFound<CustomerDoc>(store, CUSTOMERS, tenantId, customerId, 'customer');
  const fields: NewDealFields = {
    customerId,
    contactId: cleanText(req.contactId),
    expectedCloseAt: cleanText(req.expectedCloseAt),
    opId: ctx.idempotencyKey || cleanText(req.opId),
  };
  const created = newDealOps(ctx, tenantId, fields);
  return {
    ops: created.ops,
    result: created.deal,
    created: true,
    rehearsal: {
      willDo: `Create an unpriced deal for customer "${customer.name}" at stage ${created.doc.stage}, valued 0 ${created.doc.currency}.`,
      effects: created.effects,
    },
  };
}

/** A new deal's ops (insert, timeline, event) and rehearsal effects; conversion commits them too. */
export function newDealOps(
  ctx: RequestContext,
  tenantId: string,
  fields: NewDealFields,
  origin: NewDealOrigin = {},
): { doc: DealDoc; deal: deals.Deal; ops: WriteOp[]; effects: common.Effect[] } {
  const now = nowIso();
  const doc: DealDoc = compact({
    id: newId('deal'),
    tenantId,
    version: 1,
    ...fields,
    stage: DEAL_STAGE_MACHINE.initial,
    valueCents: 0,
    currency: tenantCurrency(ctx),
    createdAt: now,
    updatedAt: now,
    stageChangedAt: now,
  });
  const changes = setFields(doc, DEAL_CHANGE_FIELDS);
  const activity = newDealActivity(ctx, tenantId, {
    dealId: doc.id,
    dealVersion: doc.version,
    at: now,
    action: 'created',
    changes,
    cause: origin.cause,
  });
  const deal = toDealView(doc);
  return {
    doc,
    deal,
    ops: [
      { op: 'insert', collection: DEALS, doc },
      insertActivity(activity),
      emitCrmEvent(ctx, 'deal.created', { kind: 'deal', id: doc.id }, { deal }),
    ],
    effects: [
      createEffect('deal', doc.id, changes),
      createEffect('activity', activity.id, [{ field: 'action', to: 'created' }]),
      eventEffect('deal.created', doc.id),
    ],
  };
}
