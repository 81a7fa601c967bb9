// @fieldops/kit/fast: the fast-state port (rate limits, leases) and its embedded adapter.
export { createEmbeddedFastState } from './embedded.ts';
export type { FastState } from './port.ts';
