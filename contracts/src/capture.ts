// Capture sessions and reconstruction runs, as data: the session machine, the run states, the
// values of the presign and process fields, the manifest limits and which engine can do what.
// The spec names the state `uploading`, the moves presign → uploading, finalize, abort (failed
// or cancelled) and that abort touches only a session still uploading. The rest is ours:
// - finalize leads to `finalized`, abort to `aborted`; both are final for the session (a new
//   upload is a new presign). A finalize that races an abort wins (docs/decisions.md).
// - runs go queued → running → succeeded | failed; `queued` and `running` are "in flight".
import { defineMachine, type StateOf } from './define-machine.ts';

/** How long after an abort a racing finalize still wins over it (docs/decisions.md). */
export const ABORT_RACE_WINDOW_MS = 10_000;

export const CAPTURE_SESSION_MACHINE = defineMachine({
  states: ['uploading', 'finalized', 'aborted'],
  initial: 'uploading',
  triggers: {
    finalize: { from: ['uploading'], to: 'finalized' },
    abort: { from: ['uploading'], to: 'aborted' },
  },
  /**
   * A finalize racing an abort wins: for ABORT_RACE_WINDOW_MS after the abort the session may
   * still be finalized (the abort is overridden and its fee voided, since the cancellation never
   * took effect). Not a published move: after the window the session is aborted for good.
   */
  timed: { finalize: { from: ['aborted'], withinMs: ABORT_RACE_WINDOW_MS } },
});
export type CaptureSessionStatus = StateOf<typeof CAPTURE_SESSION_MACHINE>;
export const CAPTURE_SESSION_STATUSES = CAPTURE_SESSION_MACHINE.states;

export const ABORT_REASONS = ['failed', 'cancelled'] as const;
export type AbortReason = (typeof ABORT_REASONS)[number];

/**
 * A reconstruction run. Only capture's workers move it, through the run lease: a worker claims a
 * queued run (or a running one whose lease expired: its worker died), finishes it, or gives it
 * back to the queue (a failure a retry may fix, or a stopping worker's drain). A run whose
 * attempts are spent fails when next claimed, from either status.
 */
export const RUN_STATUS_MACHINE = defineMachine({
  states: ['queued', 'running', 'succeeded', 'failed'],
  initial: 'queued',
  triggers: {
    claim: { from: ['queued', 'running'], to: 'running' },
    succeed: { from: ['running'], to: 'succeeded' },
    fail: { from: ['queued', 'running'], to: 'failed' },
    release: { from: ['running'], to: 'queued' },
  },
  notByApi: ['claim', 'succeed', 'fail', 'release'],
});
export type RunStatus = StateOf<typeof RUN_STATUS_MACHINE>;
export const RUN_STATUSES = RUN_STATUS_MACHINE.states;
/** The statuses a run is still in flight in: every one some trigger leaves. */
export const IN_FLIGHT_RUN_STATUSES: readonly RunStatus[] = RUN_STATUSES.filter(
  (status) => !RUN_STATUS_MACHINE.isFinal(status),
);

/** Where the capture came from. */
export const CAPTURE_SOURCES = ['drone', 'handheld', 'scanner', 'import'] as const;
/**
 * What a run produces: `volumes` a surface with per-region quantities, `surface` the surface and
 * scene only, `orthomosaic` a stitched image (photogrammetry only).
 */
export const CAPTURE_MODES = ['volumes', 'surface', 'orthomosaic'] as const;
export type CaptureMode = (typeof CAPTURE_MODES)[number];
/**
 * `builtin` reads 3D points (PLY, LAS) the capture uploaded; `colmap` reconstructs images on the
 * platform's own CPUs (COLMAP's sparse structure from motion); `nodeodm` sends them to NodeODM.
 */
export const CAPTURE_ENGINES = ['builtin', 'colmap', 'nodeodm'] as const;
export type CaptureEngine = (typeof CAPTURE_ENGINES)[number];
export const CAPTURE_QUALITIES = ['draft', 'standard', 'high'] as const;
export type CaptureQuality = (typeof CAPTURE_QUALITIES)[number];

/** The modes each engine can produce. */
export const ENGINE_MODES: Readonly<Record<CaptureEngine, readonly CaptureMode[]>> = {
  builtin: ['volumes', 'surface'],
  colmap: ['volumes', 'surface'],
  nodeodm: ['volumes', 'surface', 'orthomosaic'],
};

/** Content types of point-cloud files the built-in engine reads. */
export const POINT_CLOUD_CONTENT_TYPES = [
  'application/vnd.las',
  'application/x-las',
  'application/x-ply',
  'application/ply',
  'model/x-ply',
] as const;

/**
 * Upload limits, stated in the OpenAPI document and enforced at presign. The manifest's field
 * limits (files per capture, text lengths) are CAPTURE_FIELD_LIMITS (./field-limits/capture.ts).
 */
export const CAPTURE_LIMITS = {
  /** One file: S3's single-PUT ceiling. */
  maxFrameBytes: 5 * 1024 ** 3,
  /** The whole capture. */
  maxCaptureBytes: 200 * 1024 ** 3,
} as const;
