// The deal stage machine, as data. The spec names the stages, fixes the trigger `win`, says advance
// never accepts `lose`, that lose needs a stage with a lose edge and that the pipeline can reopen a
// lost deal. The rest is ours:
// - The happy path is one trigger per step: send_proposal, win, schedule, capture, deliver, invoice.
// - win also from lead: work agreed by phone or on site needs no written proposal first.
// - invoice from won onwards: a business may bill up front, part-way or after delivery; issuing
//   the invoice closes the deal (invoiced is no longer open) whichever step the work was at.
// - lose only before field work starts (lead, proposal_sent, won, scheduled). Once a site was
//   captured the work exists and the deal goes on to invoicing; invoiced is closed for good.
// - reopen takes a lost deal back to lead, the start of the pipeline: it is worked again from there.

import { defineMachine, type StateOf, type TriggerOf } from './define-machine.ts';

export const DEAL_STAGE_MACHINE = defineMachine(
  {
    states: ['lead', 'proposal_sent', 'won', 'scheduled', 'captured', 'delivered', 'invoiced', 'lost'],
    initial: 'lead',
    triggers: {
      send_proposal: { from: ['lead'], to: 'proposal_sent' },
      win: { from: ['lead', 'proposal_sent'], to: 'won' },
      schedule: { from: ['won'], to: 'scheduled' },
      capture: { from: ['scheduled'], to: 'captured' },
      deliver: { from: ['captured'], to: 'delivered' },
      invoice: { from: ['won', 'scheduled', 'captured', 'delivered'], to: 'invoiced' },
      lose: { from: ['lead', 'proposal_sent', 'won', 'scheduled'], to: 'lost' },
      reopen: { from: ['lost'], to: 'lead' },
    },
  },
  {
    /** Triggers POST /deals/:id/advance refuses: losing needs a reason, so it is its own call. */
    notByAdvance: ['lose'],
    /** Spec: open deals are all deals whose stage is not invoiced and not lost. */
    open: ['lead', 'proposal_sent', 'won', 'scheduled', 'captured', 'delivered'],
    /** Stages of a deal the customer agreed to: its value counts as won in the money rollup. */
    won: ['won', 'scheduled', 'captured', 'delivered', 'invoiced'],
  },
);
export type DealStage = StateOf<typeof DEAL_STAGE_MACHINE>;
export type DealTrigger = TriggerOf<typeof DEAL_STAGE_MACHINE>;
export const DEAL_STAGES = DEAL_STAGE_MACHINE.states;

/** The triggers POST /deals/:id/advance accepts (every trigger but lose). */
export const ADVANCE_TRIGGERS = DEAL_STAGE_MACHINE.triggerNames.filter(
  (trigger): trigger is Exclude<DealTrigger, 'lose'> => !DEAL_STAGE_MACHINE.isIn('notByAdvance', trigger),
);
export type AdvanceTrigger = (typeof ADVANCE_TRIGGERS)[number];
