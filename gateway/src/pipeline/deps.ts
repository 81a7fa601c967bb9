// What the pipeline needs from the rest of the gateway, passed in (never imported), so tests can
// build a gateway around any registry and the embedded or Redis fast state.
import type { CursorSeal } from './cursor-seal.js';
import type { FastState } from '@fieldops/kit/fast';
import type { Logger } from '@fieldops/kit';
import type { Caller } from '../identity/model.js';
import type { authorize } from '../identity/authorize.js';
import type { RateLimits } from '../limits.js';
import type { ServiceClients } from '../clients.js';
import type { ChangeFeed } from '../sync/change-feed.js';

export interface PipelineDeps {
  authenticate: (authorization: string | undefined) => Promise<Caller>;
  authorize: typeof authorize;
  canAccessProject: (caller: Caller, projectId: string) => boolean;
  /** Whether a member exists in the tenant (identity's member store); absent: not checked. */
  memberExists?: (tenantId: string, memberId: string) => Promise<boolean>;
  fast: FastState;
  limits: RateLimits;
  clients: ServiceClients;
  logger: Logger;
  /** Seals every nextCursor answered and opens every cursor sent (cursor-seal.ts). */
  cursors: CursorSeal;
  /** The change feed GET /changes reads (absent in gateways built without one). */
  changes?: ChangeFeed;
}
