// The capture domain: its collections, settings and RPC handlers, opened on the store it owns.
// Its other faces: ./collections (for the store catalogue), ./start-capture, ./worker.
import { defineCaptureCollections } from './collections.js';
import type { CaptureDeps } from './deps.js';
import { createCaptureHandlers, type CaptureHandlers } from './handlers.js';

export async function openCaptureDomain(deps: CaptureDeps): Promise<CaptureHandlers> {
  await defineCaptureCollections(deps.store);
  return createCaptureHandlers(deps);
}

export { createCaptureHandlers } from './handlers.js';
export type { CaptureHandlers } from './handlers.js';
export type { CaptureDeps } from './deps.js';
export { CAPTURE_COLLECTIONS, defineCaptureCollections } from './collections.js';
export { captureSettingsFromEnv, colmapAnswers } from './settings.js';
export { isInstalled } from './scenes/export-formats.js';
