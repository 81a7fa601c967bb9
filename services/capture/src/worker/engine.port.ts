// The reconstruction engine port: what a worker hands an engine and what it gets back. The
// built-in engine (builtin.engine.ts) reads 3D points the capture uploaded; photogrammetry
// (nodeodm.engine.ts) turns images into a model. Engines write their outputs under the attempt's
// own prefix, so the outputs of a worker that lost its lease never mix with the winner's.
import type { CaptureEngine } from '@fieldops/contracts';
import type { BlobKey, BlobStore } from '@fieldops/kit/blobs';
import type { Logger } from '@fieldops/kit';
import type { capture, measurements } from '@fieldops/proto';

export interface EngineFrame {
  key: BlobKey;
  name: string;
  contentType: string;
  /** Bytes stored (metered at finalize). */
  size: number;
}

export interface EngineJob {
  tenantId: string;
  projectId: string;
  captureId: string;
  runId: string;
  /** 1 for the first attempt; a retried run starts over. */
  attempt: number;
  mode: string;
  quality: string;
  structureSpanM?: number;
  frames: EngineFrame[];
  control: boolean;
  hasLidar: boolean;
  /** Where this attempt may write artifacts: `tenants/<t>/runs/<runId>/attempt-<n>/`. */
  outputPath: (name: string) => BlobKey;
}

export interface EngineIo {
  blobs: BlobStore;
  /** Reports progress (0 to 1) and the phase; also keeps the worker's lease on the run alive. */
  progress(fraction: number, phase: string): Promise<void>;
  /** Aborted when the worker loses the run (lease taken over) or shuts down. */
  signal: AbortSignal;
  /** The worker's logger, bound to the run (runId, attempt); engines log their phases on it. */
  logger?: Logger;
}

export interface SceneArtifact {
  key: BlobKey;
  name: string;
  contentType: string;
  size: number;
}

export interface EngineResult {
  scene: {
    kind: 'point-cloud' | 'surface' | 'orthomosaic' | 'model';
    pointCount: number;
    /** Metres, in the capture's own coordinates. */
    bounds?: { minX: number; minY: number; minZ: number; maxX: number; maxY: number; maxZ: number };
    formats: string[];
  };
  artifacts: SceneArtifact[];
  /** Mode volumes: per-region cut, fill, net, footprint and tonnage with their bands. */
  quantities?: measurements.SiteQuantities;
  /** Photogrammetry: how well the reconstruction went, stored on the run and its scene. */
  reconstruction?: capture.ReconstructionQuality;
}

export interface ReconstructionEngine {
  readonly name: CaptureEngine;
  run(job: EngineJob, io: EngineIo): Promise<EngineResult>;
}

/** An engine failure no retry can fix (a corrupt file): the run fails at once with this sentence. */
export class PermanentEngineFailure extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentEngineFailure';
  }
}
