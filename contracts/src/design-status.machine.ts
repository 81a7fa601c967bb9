// The design status machine, as data (spec: "Operations named but with their shape left open" 3:
// sealing a design is a binding operation that requires confirmation). A design is drawn work on a
// project (a solar layout, a site plan, a survey design); it is recorded as a draft and sealed once
// a person confirms it through the two-phase confirmation. Sealed is final: a sealed design is the
// one that was signed off, so it is never changed; a new revision is a new design.

export const DESIGN_STATUSES = ['draft', 'sealed'] as const;
export type DesignStatus = (typeof DESIGN_STATUSES)[number];

export const DESIGN_TRIGGERS = ['seal'] as const;
export type DesignTrigger = (typeof DESIGN_TRIGGERS)[number];

/** What a design draws. solar_layout is the one compliance reads for plan-set readiness. */
export const DESIGN_KINDS = ['solar_layout', 'site_plan', 'survey', 'other'] as const;
export type DesignKind = (typeof DESIGN_KINDS)[number];

export const DESIGN_STATUS_MACHINE = {
  initial: 'draft',
  triggers: {
    /** POST /projects/:id/designs/:designId/seal, behind the two-phase confirmation. */
    seal: { from: ['draft'], to: 'sealed' },
  },
} as const satisfies {
  initial: DesignStatus;
  triggers: Record<DesignTrigger, { from: readonly DesignStatus[]; to: DesignStatus }>;
};

/** Whether `trigger` has an edge out of `status`. */
export const canFireDesign = (status: string, trigger: DesignTrigger): boolean =>
  (DESIGN_STATUS_MACHINE.triggers[trigger].from as readonly string[]).includes(status);

/** The machine as status → reachable statuses (the shape x-state-machine publishes as `moves`). */
export const DESIGN_STATUS_MOVES: Readonly<Record<DesignStatus, readonly DesignStatus[]>> =
  Object.fromEntries(
    DESIGN_STATUSES.map((status) => [
      status,
      DESIGN_TRIGGERS.filter((trigger) => canFireDesign(status, trigger)).map(
        (trigger) => DESIGN_STATUS_MACHINE.triggers[trigger].to,
      ),
    ]),
  ) as Record<DesignStatus, DesignStatus[]>;
