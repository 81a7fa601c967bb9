// The tenant export status machine, as data (spec: "Tenant export"). Only the background packager
// moves an export: queued → tables → assets → packaging → ready, or failed from any phase with
// the failing phase named. A packager restarted mid-way starts the export again at tables.
// ready and failed are final.

import { defineMachine, type StateOf } from './define-machine.ts';

export const EXPORT_PHASES = ['queued', 'tables', 'assets', 'packaging'] as const;
export type ExportPhase = (typeof EXPORT_PHASES)[number];

export const EXPORT_STATUS_MACHINE = defineMachine({
  states: [...EXPORT_PHASES, 'ready', 'failed'],
  initial: 'queued',
  triggers: {
    /** The packager starts (or, after a restart, starts again) by reading every service's records. */
    tabulate: { from: EXPORT_PHASES, to: 'tables' },
    collectAssets: { from: ['tables'], to: 'assets' },
    package: { from: ['assets'], to: 'packaging' },
    /** The archive is stored whole and its checksum known: only then is it ready. */
    finish: { from: ['packaging'], to: 'ready' },
    fail: { from: EXPORT_PHASES, to: 'failed' },
  },
  /** Every move is the packager's; no endpoint fires one. */
  notByApi: ['tabulate', 'collectAssets', 'package', 'finish', 'fail'],
});
export type ExportStatus = StateOf<typeof EXPORT_STATUS_MACHINE>;
export const EXPORT_STATUSES = EXPORT_STATUS_MACHINE.states;
