// Moving a deal along its stage machine, as write ops another plan can commit with its own.
// POST /deals/:id/advance and /lose use it, and so do other aggregates whose change moves a deal
// (a signed proposal wins it, an issued invoice invoices it): their plan adds these ops to its
// own, so the deal moves in the same commit as the cause, or not at all.
import { DEAL_STAGE_MACHINE, type DealStage, type DealTrigger } from '@fieldops/contracts';
import { type RequestContext, AppError, nowIso } from '@fieldops/kit';
import type { DocumentStore, WriteOp } from '@fieldops/kit/store';
import { requireTenantId } from '@fieldops/kit/write';
import type { common, deals } from '@fieldops/proto';
import { diffFields, compact, getOrNotFound } from '@fieldops/kit/domain';
import { DEALS } from '../collections.ts';
import { createEffect, eventEffect, updateEffect } from '../effects.ts';
import { emitCrmEvent } from '../events.ts';
import { insertActivity } from '../customers/activity.ts';
import { newDealActivity } from './deal-activity.ts';
import { DEAL_CHANGE_FIELDS, toDealView, type DealDoc } from './deal.model.ts';

export interface DealTriggerInput {
  dealId: string;
  trigger: DealTrigger;
  /** What moved the deal, for its timeline and event, e.g. "proposal prop_… signed". */
  cause?: string;
  /** Required for `lose`: why the deal was lost (stored on the deal). Ignored otherwise. */
  reason?: string;
  /**
   * The deal's new value (a signed proposal's total). Must be in the deal's currency. Applied
   * with the move, or on its own when the deal is already at the trigger's destination.
   */
  value?: common.Money;
}

export interface DealTriggerPlan {
  /** Deal replace + timeline entry + event; empty when nothing changes. Commit them with yours. */
  ops: WriteOp[];
  /** The deal as it is after the ops commit (as it is now when ops is empty). */
  deal: deals.Deal;
  /** The deal was already at the trigger's destination: the stage did not move. */
  alreadyThere: boolean;
  from: DealStage;
  to: DealStage;
  /** For the caller's dry-run rehearsal. */
  effects: common.Effect[];
  /** "deal deal_… won → invoiced" for a willDo sentence; "" when nothing changes. */
  summary: string;
}

/**
 * Plans `trigger` on the deal. Throws not_found when the deal is not in the tenant, conflict
 * (with legalTriggers and stage) when the trigger has no edge out of the current stage, and
 * field_required when `lose` comes without a reason. Reads only; commits nothing.
 */
export async function planDealTrigger(
  store: DocumentStore,
  ctx: RequestContext,
  input: DealTriggerInput,
): Promise<DealTriggerPlan> {
  const tenantId = requireTenantId(ctx);
  const doc = await getOrNotFound<DealDoc>(store, DEALS, tenantId, input.dealId, 'deal');
  return planTriggerOn(doc, ctx, input);
}

/** The same plan on a deal already read (or about to be inserted in the same commit). */
export function planTriggerOn(doc: DealDoc, ctx: RequestContext, input: DealTriggerInput): DealTriggerPlan {
  const to = DEAL_STAGE_MACHINE.destination(input.trigger);
  const alreadyThere = doc.stage === to;
  if (!alreadyThere) assertLegal(doc, input.trigger);
  const next = moved(doc, input, alreadyThere);
  const changes = diffFields(doc, next, DEAL_CHANGE_FIELDS);
  const base = { from: doc.stage, to, alreadyThere };
  if (changes.length === 0) {
    return { ...base, ops: [], deal: toDealView(doc), effects: [], summary: '' };
  }
  const stageMoved = next.stage !== doc.stage;
  const action = stageMoved ? 'stage_changed' : 'value_changed';
  const type = stageMoved ? 'deal.stage_changed' : 'deal.value_changed';
  const activity = newDealActivity(ctx, doc.tenantId, {
    dealId: doc.id,
    dealVersion: next.version,
    at: next.updatedAt,
    action,
    changes,
    trigger: stageMoved ? input.trigger : undefined,
    cause: input.cause,
    note: stageMoved && next.stage === DEAL_STAGE_MACHINE.destination('lose') ? next.reason : undefined,
  });
  const deal = toDealView(next);
  const eventData = compact({ trigger: input.trigger, from: doc.stage, to: next.stage, cause: input.cause });
  return {
    ...base,
    ops: [
      { op: 'replace', collection: DEALS, doc: next, expectedVersion: doc.version },
      insertActivity(activity),
      emitCrmEvent(ctx, type, { kind: 'deal', id: doc.id }, { ...eventData, changes, deal }),
    ],
    deal,
    effects: [
      updateEffect('deal', doc.id, changes),
      createEffect('activity', activity.id, [{ field: 'action', to: action }]),
      eventEffect(type, doc.id),
    ],
    summary: stageMoved
      ? `move deal ${doc.id} from ${doc.stage} to ${next.stage} (${input.trigger})`
      : `set the value of deal ${doc.id} to ${next.valueCents} ${next.currency} cents`,
  };
}

function assertLegal(doc: DealDoc, trigger: DealTrigger): void {
  if (DEAL_STAGE_MACHINE.canFire(doc.stage, trigger)) return;
  const legal = DEAL_STAGE_MACHINE.legalTriggers(doc.stage);
  throw new AppError(
    'conflict',
    `A deal at stage ${doc.stage} cannot take the trigger ${trigger}; from ${doc.stage} the legal triggers are: ${legal.join(', ') || 'none'}.`,
    { legalTriggers: legal, stage: doc.stage },
  );
}

function moved(doc: DealDoc, input: DealTriggerInput, alreadyThere: boolean): DealDoc {
  const now = nowIso();
  const stage = DEAL_STAGE_MACHINE.destination(input.trigger);
  const valueCents = valueFor(doc, input.value);
  const reason = alreadyThere ? doc.reason : reasonAfter(stage, input);
  const next = compact({ ...doc, stage, valueCents, reason });
  if (diffFields(doc, next, DEAL_CHANGE_FIELDS).length === 0) return doc;
  return compact({
    ...next,
    version: doc.version + 1,
    updatedAt: now,
    stageChangedAt: alreadyThere ? doc.stageChangedAt : now,
  });
}

/** A lost deal keeps why (required); every other stage carries no reason, so reopen clears it. */
function reasonAfter(stage: DealStage, input: DealTriggerInput): string | undefined {
  if (stage !== DEAL_STAGE_MACHINE.triggers.lose.to) return undefined;
  const reason = input.reason?.trim();
  if (!reason) {
    throw new AppError('field_required', 'reason is required to lose a deal: say why it was lost.', {
      field: 'reason',
    });
  }
  return reason;
}

function valueFor(doc: DealDoc, value: common.Money | undefined): number {
  if (!value) return doc.valueCents;
  if (value.currency !== doc.currency) {
    throw new AppError(
      'conflict',
      `Deal ${doc.id} is valued in ${doc.currency}; a value in ${value.currency} cannot be set on it.`,
      { stage: doc.stage, currency: doc.currency },
    );
  }
  if (!Number.isSafeInteger(value.cents) || value.cents < 0) {
    throw new AppError('field_invalid', 'A deal value is a whole, non-negative number of cents.', {
      field: 'value',
    });
  }
  return value.cents;
}
