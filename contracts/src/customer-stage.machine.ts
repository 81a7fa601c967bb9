// The customer stage machine, as data. The spec names the stages and leaves the transitions
// open; these are our decisions:
// - Forward moves may skip stages (a customer can book without a proposal: Lead → Active).
// - Proposal → Qualified: a declined proposal goes back to being worked on.
// - Active → Lost: a customer who stops buying.
// - Lost → Lead: reopening starts the pipeline again from the beginning.
// Any stage is accepted on create (the spec lets POST /customers set it); only PATCH is guarded.

import { defineMachine, type StateOf } from './define-machine.ts';

export const CUSTOMER_STAGE_MACHINE = defineMachine({
  initial: 'Lead',
  moves: {
    Lead: ['Qualified', 'Proposal', 'Active', 'Lost'],
    Qualified: ['Proposal', 'Active', 'Lost'],
    Proposal: ['Active', 'Qualified', 'Lost'],
    Active: ['Lost'],
    Lost: ['Lead'],
  },
});
export type CustomerStage = StateOf<typeof CUSTOMER_STAGE_MACHINE>;
export const CUSTOMER_STAGES = CUSTOMER_STAGE_MACHINE.states;
