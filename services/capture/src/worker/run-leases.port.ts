// What a reconstruction worker needs from capture to work on runs: claim one, keep its lease,
// and complete, fail or release it. Two adapters: over capture's own store in capture's process
// (runs/run-leases.local.ts: the rules themselves, also behind capture's RunLeaseService) and over
// that gRPC service in a separate worker process (run-leases.grpc.ts), which then holds no store.
import type { EngineFrame, EngineResult } from './engine.port.ts';

/** What a worker holds on a run: every change it sends is applied at `version` or refused. */
export interface HeldRun {
  tenantId: string;
  runId: string;
  owner: string;
  version: number;
}

/** A claimed run: the hold, and what the engine needs to run it. */
export interface ClaimedRun {
  held: HeldRun;
  projectId: string;
  captureId: string;
  /** This attempt's number (1 for the first). */
  attempts: number;
  maxAttempts: number;
  engine: string;
  mode: string;
  quality: string;
  structureSpanM?: number;
  frames: EngineFrame[];
  control: boolean;
  hasLidar: boolean;
  /** The tenant's settings, for the contexts of the worker's calls to other services. */
  tenantCurrency: string;
  tenantDefaultVertical: string;
}

export const SKIP_REASONS = ['done', 'held', 'lost', 'missing', 'exhausted'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export type ClaimOutcome = { claimed: ClaimedRun } | { skipped: SkipReason };

/** What a completed run stores: its scene and the files of it (measured quantities go elsewhere). */
export type RunResult = Pick<EngineResult, 'scene' | 'artifacts' | 'reconstruction'>;

export interface ActiveRun {
  tenantId: string;
  runId: string;
}

export interface RunLeases {
  /** Notes a queued run a worker may have to pick up later, if its worker dies. Idempotent. */
  track(tenantId: string, runId: string): Promise<void>;
  /** The tracked runs, oldest first; runs that are done are forgotten by claim and complete. */
  listActive(limit: number): Promise<ActiveRun[]>;
  /** Takes a queued run, or a running one whose lease expired (its worker died), as attempt n+1. */
  claim(tenantId: string, runId: string, owner: string, leaseMs: number): Promise<ClaimOutcome>;
  /** Extends the lease (and records progress); the new hold, or null when the lease was lost. */
  renew(
    held: HeldRun,
    leaseMs: number,
    progress?: { fraction: number; phase: string },
  ): Promise<HeldRun | null>;
  /** Records the scene with the succeeded run, once; false when the lease was lost. */
  complete(held: HeldRun, result: RunResult): Promise<boolean>;
  /** Fails the run for good with a sentence for the customer; false when the lease was lost. */
  fail(held: HeldRun, error: string): Promise<boolean>;
  /** Gives the run back to the queue (a failure a retry may fix); false when the lease was lost. */
  release(held: HeldRun): Promise<boolean>;
  /**
   * Gives the run back from a stopping worker (a drain), unfinished but not failed: the attempt it
   * started is not counted, so the next claim runs the same attempt number. False when the lease
   * was lost.
   */
  handBack(held: HeldRun): Promise<boolean>;
}
