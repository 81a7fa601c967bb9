// Types of supervision.mjs's pure parts, for the tests.
export interface BackoffPolicy {
  startMs: number;
  maxMs: number;
  resetAfterMs: number;
}
export const KUBELET_BACKOFF: BackoffPolicy;
export function backoffDelay(crashes: number, policy?: BackoffPolicy): number;
