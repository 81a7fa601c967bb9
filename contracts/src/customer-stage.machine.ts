// Customer stages (spec: Customer stage). The machine's moves are declared alongside them.
export const CUSTOMER_STAGES = ['Lead', 'Qualified', 'Proposal', 'Active', 'Lost'] as const;
export type CustomerStage = (typeof CUSTOMER_STAGES)[number];
