// The capability token of a client page link, in the format of the kit's signed links. Whoever
// holds the link may read that one page until it expires, nothing else. Pages are never stored, so
// there is no nonce to retire: a link lives until its expiry.
import { signLink, verifyLink, type LinkCheck, type LinkClaims, type LinkKey } from '@fieldops/kit/domain';

export const PAGE_KINDS = ['project', 'customer'] as const;
export type PageKind = (typeof PAGE_KINDS)[number];

export type PageClaims = LinkClaims<PageKind>;
export type PageKey = LinkKey;
export type PageTokenCheck = LinkCheck<PageClaims>;

export const signPageToken = (key: PageKey, claims: PageClaims): string => signLink(key, claims);

/** Verifies a token against the keys we hold; `now` in epoch milliseconds. */
export const verifyPageToken = (
  keys: ReadonlyMap<string, PageKey>,
  token: string,
  now: number,
): PageTokenCheck => verifyLink(keys, token, now, PAGE_KINDS);
