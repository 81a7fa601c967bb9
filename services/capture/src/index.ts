// The capture domain: its collections, settings and RPC handlers, opened on the store it owns.
// Its other faces: ./collections (for the store catalogue), ./start-capture, ./worker.
import { defineCaptureCollections } from './collections.ts';
import type { CaptureDeps } from './deps.ts';
import { createCaptureHandlers, type CaptureHandlers } from './handlers.ts';

export async function openCaptureDomain(deps: CaptureDeps): Promise<CaptureHandlers> {
  await defineCaptureCollections(deps.store);
  return createCaptureHandlers(deps);
}

export { createCaptureHandlers } from './handlers.ts';
export type { CaptureHandlers } from './handlers.ts';
export type { CaptureDeps } from './deps.ts';
export { CAPTURE_COLLECTIONS, defineCaptureCollections } from './collections.ts';
export { captureSettingsFromEnv, colmapAnswers } from './settings.ts';
export { isInstalled } from './scenes/export-formats.ts';
