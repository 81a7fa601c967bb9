// @fieldops/kit/fast: the fast-state port (rate limits, leases) and its embedded adapter.
export { createEmbeddedFastState } from './embedded.js';
export type { FastState } from './port.js';
