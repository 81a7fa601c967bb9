// crm's customer links (a proposal to sign, an invoice to pay): signed, expiring and retirable, in
// the format of the kit's signed links. The nonce is stored on the document, so minting a new link
// (or withdrawing the document) retires the old one.
import {
  verifyRetirableLink,
  type LinkCheck,
  type LinkKey,
  type RetirableLinkClaims,
} from '@fieldops/kit/domain';

export { newLinkNonce, signLink } from '@fieldops/kit/domain';
export type { LinkKey };

const LINK_KINDS = ['proposal', 'invoice'] as const;
export type LinkKind = (typeof LINK_KINDS)[number];

export type LinkClaims = RetirableLinkClaims<LinkKind>;

/** Verifies a link against the keys we hold; `now` in epoch milliseconds. */
export const verifyLink = (
  keys: ReadonlyMap<string, LinkKey>,
  token: string,
  now: number,
): LinkCheck<LinkClaims> => verifyRetirableLink(keys, token, now, LINK_KINDS);
