// Minting the links of GET /client-pages. A link is a path on the gateway's origin with the token
// in the query (request logs record paths, not queries), minted fresh on every list.
import type { projects } from '@fieldops/proto';
import type { PageKeyring } from './page-keys.ts';
import { signPageToken } from './page-token.ts';
import type { PageKind } from './page-token.ts';

/** Where the gateway serves client pages. */
export const CLIENT_PAGE_PATH = '/client/v1/page';

/** How long a minted link opens its page: long enough to be emailed and read, then it dies. */
export const DEFAULT_PAGE_LINK_TTL_MS = 14 * 24 * 60 * 60 * 1000;

export interface LinkMinter {
  keys: PageKeyring;
  ttlMs: number;
  now: () => number;
}

export function pageLink(
  minter: LinkMinter,
  tenantId: string,
  page: { kind: PageKind; id: string; title: string },
): projects.ClientPageLink {
  // Tokens carry whole seconds; rounding up never shortens a link's life.
  const expiresAt = Math.ceil((minter.now() + minter.ttlMs) / 1000) * 1000;
  const token = signPageToken(minter.keys.current, { tenantId, kind: page.kind, id: page.id, expiresAt });
  return {
    kind: page.kind,
    id: page.id,
    title: page.title,
    href: `${CLIENT_PAGE_PATH}?token=${encodeURIComponent(token)}`,
    expiresAt: new Date(expiresAt).toISOString(),
  };
}
