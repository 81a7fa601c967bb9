// Which engine and mode can process a capture, decided before anything is queued: the built-in
// engine reads 3D points (PLY, LAS); images need a photogrammetry engine the platform has (COLMAP,
// NodeODM; photogrammetry-engines.ts decides which). An infeasible choice is refused with what
// would work.
import { CAPTURE_ENGINES, ENGINE_MODES, type CaptureEngine, type CaptureMode } from '@fieldops/contracts';
import { AppError } from '@fieldops/kit';
import { isImage, isPointCloud } from '../session-model/manifest.ts';
import type { FrameDoc } from '../session-model/session.model.ts';
import type { EngineAvailability } from '../photogrammetry-engines.ts';

export type { EngineAvailability } from '../photogrammetry-engines.ts';

/** What the operator can do to get a photogrammetry engine, named in refusals. */
export const PHOTOGRAMMETRY_SETUP =
  'install COLMAP (apt-get install colmap, or set FIELDOPS_COLMAP_BIN to its binary) or set FIELDOPS_NODEODM_URL to a NodeODM server';

type Frames = readonly Pick<FrameDoc, 'contentType' | 'name'>[];

function whyNot(engine: CaptureEngine, frames: Frames, available: EngineAvailability): string | undefined {
  if (engine === 'builtin') {
    return frames.some(isPointCloud)
      ? undefined
      : 'the built-in engine reads 3D points (PLY or LAS files) and this capture has none';
  }
  if (!frames.some(isImage)) return 'photogrammetry needs images and this capture has none';
  if (!available.colmap && !available.nodeodm) {
    return `no photogrammetry engine is configured on this platform (the operator can ${PHOTOGRAMMETRY_SETUP})`;
  }
  if (engine === 'colmap' && !available.colmap) {
    return 'COLMAP is not installed on this platform (the operator installs it or sets FIELDOPS_COLMAP_BIN)';
  }
  if (engine === 'nodeodm' && !available.nodeodm) {
    return 'NodeODM is not configured on this platform (the operator sets FIELDOPS_NODEODM_URL)';
  }
  return undefined;
}

/** What would work for this capture, listed in refusals so the caller can pick. */
export function feasibleChoices(frames: Frames, available: EngineAvailability) {
  return CAPTURE_ENGINES.filter((engine) => whyNot(engine, frames, available) === undefined).map(
    (engine) => ({
      engine,
      modes: ENGINE_MODES[engine],
    }),
  );
}

/**
 * The engine a capture goes to when none is named: points to the built-in one, images to
 * photogrammetry (the platform's own COLMAP first, then NodeODM).
 */
export const defaultEngine = (frames: Frames, available: EngineAvailability): CaptureEngine =>
  frames.some(isPointCloud) ? 'builtin' : available.colmap || !available.nodeodm ? 'colmap' : 'nodeodm';

export const DEFAULT_MODE: CaptureMode = 'volumes';

/** Throws field_invalid naming the field when the engine or mode cannot process these frames. */
export function assertFeasible(
  frames: Frames,
  choice: { engine: CaptureEngine; mode: CaptureMode },
  available: EngineAvailability,
): void {
  const feasible = feasibleChoices(frames, available);
  const reason = whyNot(choice.engine, frames, available);
  if (reason) {
    throw new AppError('field_invalid', `engine ${choice.engine} cannot process this capture: ${reason}.`, {
      field: 'engine',
      feasible,
    });
  }
  if (!ENGINE_MODES[choice.engine].includes(choice.mode)) {
    throw new AppError(
      'field_invalid',
      `engine ${choice.engine} cannot produce mode ${choice.mode}; it produces ${ENGINE_MODES[choice.engine].join(', ')}.`,
      { field: 'mode', feasible },
    );
  }
}
