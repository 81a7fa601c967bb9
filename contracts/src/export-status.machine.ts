// The tenant export status machine, as data (spec: "Tenant export"). Only the background packager
// moves an export: queued → tables → assets → packaging → ready, or failed from any phase with
// the failing phase named. A packager restarted mid-way starts the export again at tables.
// ready and failed are final.

export const EXPORT_PHASES = ['queued', 'tables', 'assets', 'packaging'] as const;
export type ExportPhase = (typeof EXPORT_PHASES)[number];
export const EXPORT_STATUSES = [...EXPORT_PHASES, 'ready', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

export const EXPORT_TRIGGERS = ['tabulate', 'collectAssets', 'package', 'finish', 'fail'] as const;
export type ExportTrigger = (typeof EXPORT_TRIGGERS)[number];

export const EXPORT_STATUS_MACHINE = {
  initial: 'queued',
  triggers: {
    /** The packager starts (or, after a restart, starts again) by reading every service's records. */
    tabulate: { from: ['queued', 'tables', 'assets', 'packaging'], to: 'tables' },
    collectAssets: { from: ['tables'], to: 'assets' },
    package: { from: ['assets'], to: 'packaging' },
    /** The archive is stored whole and its checksum known: only then is it ready. */
    finish: { from: ['packaging'], to: 'ready' },
    fail: { from: ['queued', 'tables', 'assets', 'packaging'], to: 'failed' },
  },
  /** Every move is the packager's; no endpoint fires one. */
  notByApi: ['tabulate', 'collectAssets', 'package', 'finish', 'fail'],
} as const satisfies {
  initial: ExportStatus;
  triggers: Record<ExportTrigger, { from: readonly ExportPhase[]; to: ExportStatus }>;
  notByApi: readonly ExportTrigger[];
};

/** Whether the machine has an edge from `from` to `to`. */
export const canMoveExport = (from: string, to: string): boolean =>
  Object.values(EXPORT_STATUS_MACHINE.triggers).some(
    (edge) => edge.to === to && (edge.from as readonly string[]).includes(from),
  );
