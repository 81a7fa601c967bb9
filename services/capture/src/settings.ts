// Operator settings of the capture service, read once from the environment. Which photogrammetry
// engines exist is decided in photogrammetry-engines.ts, for capture and its workers alike.
import { ConfigError } from '@fieldops/kit';
import {
  photogrammetryEnginesFromEnv,
  type ColmapSettings,
  type EngineAvailability,
  type PhotogrammetryRole,
} from './photogrammetry-engines.ts';

export { colmapAnswers, DEFAULT_COLMAP_THREADS, type ColmapSettings } from './photogrammetry-engines.ts';

export interface CaptureSettings {
  /** Flat, non-refundable fee billed when an upload is cancelled (FIELDOPS_CAPTURE_CANCEL_FEE_CENTS). */
  cancelFeeCents: number;
  /** The photogrammetry engines this platform has: what presign and process accept. */
  engines: EngineAvailability;
  /** NodeODM base URL (FIELDOPS_NODEODM_URL) when NodeODM is an engine here. */
  nodeOdmUrl: string | undefined;
  /** COLMAP as this process runs it; absent when COLMAP is not an engine, or not run by this process. */
  colmap?: ColmapSettings;
}

export const DEFAULT_CANCEL_FEE_CENTS = 500;

/**
 * The capture settings of this process. `runsEngines`: whether it runs reconstructions (a worker,
 * `npm start` with its in-process workers; the default) or only serves capture's API, which then
 * takes FIELDOPS_PHOTOGRAMMETRY_ENGINES as it is without looking for COLMAP on its own machine.
 */
export function captureSettingsFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  role: PhotogrammetryRole = { runsEngines: true },
): CaptureSettings {
  const fee = env['FIELDOPS_CAPTURE_CANCEL_FEE_CENTS']?.trim();
  const cancelFeeCents = fee ? Number(fee) : DEFAULT_CANCEL_FEE_CENTS;
  if (!Number.isSafeInteger(cancelFeeCents) || cancelFeeCents < 0) {
    throw new ConfigError([
      `FIELDOPS_CAPTURE_CANCEL_FEE_CENTS must be a whole number of cents (got "${fee}")`,
    ]);
  }
  const engines = photogrammetryEnginesFromEnv(env, role);
  return {
    cancelFeeCents,
    engines: engines.available,
    nodeOdmUrl: engines.nodeOdmUrl,
    ...(engines.colmap ? { colmap: engines.colmap } : {}),
  };
}
