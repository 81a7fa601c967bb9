// The design status machine, as data (spec: "Operations named but with their shape left open" 3:
// sealing a design is a binding operation that requires confirmation). A design is drawn work on a
// project (a solar layout, a site plan, a survey design); it is recorded as a draft and sealed once
// a person confirms it through the two-phase confirmation. Sealed is final: a sealed design is the
// one that was signed off, so it is never changed; a new revision is a new design.

import { defineMachine, type StateOf } from './define-machine.ts';

export const DESIGN_STATUS_MACHINE = defineMachine({
  states: ['draft', 'sealed'],
  initial: 'draft',
  triggers: {
    /** POST /projects/:id/designs/:designId/seal, behind the two-phase confirmation. */
    seal: { from: ['draft'], to: 'sealed' },
  },
});
export type DesignStatus = StateOf<typeof DESIGN_STATUS_MACHINE>;
export const DESIGN_STATUSES = DESIGN_STATUS_MACHINE.states;

/** What a design draws. solar_layout is the one compliance reads for plan-set readiness. */
export const DESIGN_KINDS = ['solar_layout', 'site_plan', 'survey', 'other'] as const;
export type DesignKind = (typeof DESIGN_KINDS)[number];
