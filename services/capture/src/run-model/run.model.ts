// A reconstruction run as stored, and as the run poll target shows it.
import type { RunStatus } from '@fieldops/contracts';
import type { Doc } from '@fieldops/kit/store';
import { capture } from '@fieldops/proto';

export interface RunLease {
  /** The worker holding the run. */
  owner: string;
  /** Epoch ms; past it another worker may take the run over. */
  untilMs: number;
}

export interface RunDoc extends Doc {
  projectId: string;
  captureId: string;
  status: RunStatus;
  /** Set while queued or running (unique): one run in flight per capture. */
  inFlightCaptureId?: string;
  trigger: 'finalize' | 'process';
  mode: string;
  engine: string;
  quality: string;
  structureSpanM?: number;
  sceneTag?: string;
  /** Attempts started; a worker that dies mid-job costs one. */
  attempts: number;
  maxAttempts: number;
  lease?: RunLease;
  progress: number;
  phase: string;
  error?: string;
  sceneId?: string;
  /** Photogrammetry runs that succeeded: how well the reconstruction went. */
  reconstruction?: capture.ReconstructionQuality;
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
  updatedAt: string;
  /** The request context's tenant settings, for events the worker emits later. */
  tenantCurrency: string;
  tenantDefaultVertical: string;
}

export const MAX_RUN_ATTEMPTS = 3;

/** The view is the message's fields of the document, absent ones at their defaults ('' for text). */
export function toRunView(doc: RunDoc): capture.Run {
  return capture.Run.fromPartial(doc);
}
