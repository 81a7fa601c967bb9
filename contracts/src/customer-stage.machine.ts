// The customer stage machine, as data. The spec names the stages and leaves the transitions
// open; these are our decisions:
// - Forward moves may skip stages (a customer can book without a proposal: Lead → Active).
// - Proposal → Qualified: a declined proposal goes back to being worked on.
// - Active → Lost: a customer who stops buying.
// - Lost → Lead: reopening starts the pipeline again from the beginning.
// Any stage is accepted on create (the spec lets POST /customers set it); only PATCH is guarded.

export const CUSTOMER_STAGES = ['Lead', 'Qualified', 'Proposal', 'Active', 'Lost'] as const;
export type CustomerStage = (typeof CUSTOMER_STAGES)[number];

export const CUSTOMER_STAGE_MACHINE = {
  initial: 'Lead',
  moves: {
    Lead: ['Qualified', 'Proposal', 'Active', 'Lost'],
    Qualified: ['Proposal', 'Active', 'Lost'],
    Proposal: ['Active', 'Qualified', 'Lost'],
    Active: ['Lost'],
    Lost: ['Lead'],
  },
} as const satisfies {
  initial: CustomerStage;
  moves: Record<CustomerStage, readonly CustomerStage[]>;
};

export const isCustomerStage = (value: string): value is CustomerStage =>
  (CUSTOMER_STAGES as readonly string[]).includes(value);

/** The stages PATCH may move a customer to from `stage` (none for an unknown stage). */
export function nextStages(stage: string): CustomerStage[] {
  return isCustomerStage(stage) ? [...CUSTOMER_STAGE_MACHINE.moves[stage]] : [];
}

export const canMoveStage = (from: string, to: string): boolean =>
  (nextStages(from) as string[]).includes(to);
