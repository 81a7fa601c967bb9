// Limits of the filters of read-only lists (the audit log, the changes feed). Nothing is written,
// so no service re-checks them: the gateway refuses an over-long filter and the service compares
// it as given. How the limits are read: ./index.ts.
import { ID_REF_MAX } from './shared.ts';

/** GET /audit filters; runId is an X-Agent-Run-Id, as long as the gateway's agent headers. */
export const AUDIT_FILTER_LIMITS = {
  resourceId: ID_REF_MAX,
  tokenId: ID_REF_MAX,
  action: 100,
  runId: 500,
} as const;

/** GET /changes?kinds=: a comma-separated list of kinds. */
export const CHANGES_KINDS_MAX = 500;
