// What the pipeline needs from the rest of the gateway, passed in (never imported), so tests can
// build a gateway around any registry and the embedded or Redis fast state.
import type { CursorSeal } from './cursor-seal.ts';
import type { FastState } from '@fieldops/kit/fast';
import type { Logger } from '@fieldops/kit';
import type { Caller } from '../identity/model.ts';
import type { authorize } from '../identity/authorize.ts';
import type { RateLimits } from '../limits.ts';
import type { ServiceClients } from '../clients.ts';
import type { ChangeFeed } from '../sync/change-feed.ts';

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
