// How a proposal or an invoice moves its deal: the deal's own machine decides (deals/deal-trigger.ts
// plans the move as write ops), and the ops join the proposal's or invoice's commit, so the deal
// moves together with its cause or not at all. A move the deal machine does not allow from the
// deal's current stage (a lost deal, or one already past that point) leaves the deal where it is:
// billing never fails because of the pipeline, and the answer says what happened to the deal.
import type { DealTrigger } from '@fieldops/contracts';
import { type RequestContext, AppError } from '@fieldops/kit';
import type { DocumentStore, WriteOp } from '@fieldops/kit/store';
import type { billing, common } from '@fieldops/proto';
import { planDealTrigger } from '../deals/deal-trigger.ts';

export interface DealMovePlan {
  ops: WriteOp[];
  effects: common.Effect[];
  /** A clause for the rehearsal's sentence ("" when the deal does not move). */
  summary: string;
  move: billing.DealMove;
}

const NO_MOVE: Omit<DealMovePlan, 'move'> = { ops: [], effects: [], summary: '' };

export async function planDealMove(
  store: DocumentStore,
  ctx: RequestContext,
  input: { dealId: string | undefined; trigger: DealTrigger; cause: string; value?: common.Money },
): Promise<DealMovePlan | undefined> {
  if (!input.dealId) return undefined;
  const { dealId, trigger } = input;
  try {
    const plan = await planDealTrigger(store, ctx, {
      dealId,
      trigger,
      cause: input.cause,
      value: input.value,
    });
    const moved = !plan.alreadyThere;
    return {
      ops: plan.ops,
      effects: plan.effects,
      summary: plan.summary,
      move: {
        dealId,
        trigger,
        moved,
        fromStage: plan.from,
        toStage: plan.to,
        reason: moved ? undefined : `the deal is already ${plan.to}`,
      },
    };
  } catch (error) {
    if (!(error instanceof AppError) || (error.code !== 'conflict' && error.code !== 'not_found'))
      throw error;
    const stage = typeof error.extras.stage === 'string' ? error.extras.stage : undefined;
    return { ...NO_MOVE, move: { dealId, trigger, moved: false, fromStage: stage, reason: error.message } };
  }
}
