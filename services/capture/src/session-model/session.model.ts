// A capture session as stored, and as the API shows it.
import type { Complete } from '@fieldops/kit/domain';
import type { AbortReason, CaptureSessionStatus } from '@fieldops/contracts';
import type { Doc } from '@fieldops/kit/store';
import type { capture, common } from '@fieldops/proto';

export interface FrameDoc {
  index: number;
  name: string;
  contentType: string;
  declaredSize: number;
  /** Minted by the server: the only key this frame may be uploaded to. */
  key: string;
  storedSize?: number;
}

export interface CaptureSessionDoc extends Doc {
  projectId: string;
  status: CaptureSessionStatus;
  source: string;
  device: string;
  capturedBy: string;
  depth?: boolean;
  confidence?: boolean;
  control?: boolean;
  hasLidar?: boolean;
  mode: string;
  engine: string;
  quality: string;
  frames: FrameDoc[];
  declaredBytes: number;
  storedBytes?: number;
  abortReason?: AbortReason;
  abortedAt?: string;
  /** Set while an abort may still be overridden by a racing finalize. */
  abortedAtMs?: number;
  abortOverridden?: boolean;
  fee?: common.Money;
  feeUsageId?: string;
  finalizedAt?: string;
  runId?: string;
  createdAt: string;
  updatedAt: string;
  opId?: string;
}

export function toSessionView(doc: CaptureSessionDoc): capture.CaptureSession {
  return {
    id: doc.id,
    projectId: doc.projectId,
    status: doc.status,
    source: doc.source,
    device: doc.device,
    capturedBy: doc.capturedBy,
    depth: doc.depth,
    confidence: doc.confidence,
    control: doc.control,
    hasLidar: doc.hasLidar,
    mode: doc.mode,
    engine: doc.engine,
    quality: doc.quality,
    frames: doc.frames.map((frame) => ({
      index: frame.index,
      name: frame.name,
      contentType: frame.contentType,
      declaredSize: frame.declaredSize,
      key: frame.key,
      storedSize: frame.storedSize,
    })),
    declaredBytes: doc.declaredBytes,
    storedBytes: doc.storedBytes,
    abortReason: doc.abortReason ?? '',
    abortedAt: doc.abortedAt ?? '',
    finalizedAt: doc.finalizedAt ?? '',
    runId: doc.runId ?? '',
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    opId: doc.opId ?? '',
    fee: doc.fee,
    abortOverridden: doc.abortOverridden ?? false,
  } satisfies Complete<capture.CaptureSession>;
}
