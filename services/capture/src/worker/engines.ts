// The engines a worker process has: the built-in one always, and the photogrammetry engines that
// photogrammetry-engines.ts decided exist (COLMAP with the binary that answered at start, NodeODM at
// FIELDOPS_NODEODM_URL): the same decision presign and process check before queueing.
import type { CaptureEngine } from '@fieldops/contracts';
import { ConfigError } from '@fieldops/kit';
import type { CaptureSettings } from '../settings.ts';
import { builtinEngine } from './builtin.engine.ts';
import { colmapEngine } from './colmap/colmap.engine.ts';
import type { ReconstructionEngine } from './engine.port.ts';
import { nodeOdmEngine } from './nodeodm.engine.ts';

export interface EngineOptions {
  /** Where COLMAP makes each run's workspace (config.scratchDir, FIELDOPS_SCRATCH_DIR); unset, os.tmpdir(). */
  scratchDir?: string | undefined;
}

export function enginesFor(
  settings: CaptureSettings,
  options: EngineOptions = {},
): Partial<Record<CaptureEngine, ReconstructionEngine>> {
  return {
    builtin: builtinEngine,
    ...(settings.colmap
      ? {
          colmap: colmapEngine(settings.colmap, options.scratchDir ? { scratchDir: options.scratchDir } : {}),
        }
      : {}),
    ...(settings.nodeOdmUrl
      ? {
          nodeodm: nodeOdmEngine(
            settings.nodeOdmUrl,
            process.env['FIELDOPS_NODEODM_TOKEN']?.trim() || undefined,
          ),
        }
      : {}),
  };
}

/** Workers per process: FIELDOPS_CAPTURE_WORKER_CONCURRENCY, default 2 (one per core of a small node). */
export function workerConcurrencyFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env['FIELDOPS_CAPTURE_WORKER_CONCURRENCY'] ?? 2);
  return Number.isInteger(value) && value >= 1 && value <= 64 ? value : 2;
}

/** Capture refuses leases longer than an hour (run-leases.service.ts). */
const MAX_LEASE_MS = 60 * 60_000;

/**
 * How long a worker's lease on a run lasts without renewal: FIELDOPS_CAPTURE_LEASE_MS, else the
 * worker's default (30 s). It is how long a dead worker's run waits before another takes it over;
 * a worker renews at a third of it, so a short lease costs more renewals, not correctness.
 */
export function leaseMsFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
  return millisecondsFromEnv(env, 'FIELDOPS_CAPTURE_LEASE_MS', 1_000);
}

/**
 * How long a stopping worker lets its runs finish before handing them back:
 * FIELDOPS_CAPTURE_WORKER_DRAIN_MS, else the worker's default (20 s). The chart sets it from
 * captureWorkers.drainSeconds and derives the pods' grace period from it (docs/deploy.md).
 */
export function drainMsFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
  return millisecondsFromEnv(env, 'FIELDOPS_CAPTURE_WORKER_DRAIN_MS', 0);
}

/** A worker's duration setting: unset is undefined; else whole milliseconds from `min` to an hour. */
function millisecondsFromEnv(env: NodeJS.ProcessEnv, name: string, min: number): number | undefined {
  const text = env[name]?.trim();
  if (!text) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > MAX_LEASE_MS) {
    throw new ConfigError([
      `${name} must be a whole number of milliseconds from ${min} to ${MAX_LEASE_MS} (got "${text}")`,
    ]);
  }
  return value;
}

/**
 * Whether the one-process platform runs reconstruction workers itself: FIELDOPS_CAPTURE_WORKERS=0
 * turns them off (runs stay queued until a worker process takes them).
 */
export const inProcessWorkersFromEnv = (env: NodeJS.ProcessEnv = process.env): boolean =>
  env['FIELDOPS_CAPTURE_WORKERS']?.trim() !== '0';
