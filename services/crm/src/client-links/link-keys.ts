// The keyring that signs customer links, kept in crm's own store (see the kit's openLinkKeyring).
import { openLinkKeyring as openKeyring, type LinkKeyring } from '@fieldops/kit/domain';
import type { DocumentStore } from '@fieldops/kit/store';
import { LINK_KEYS } from '../collections.ts';

export type { LinkKeyring };

const FIRST_KEY_ID = 'k1';

export const openLinkKeyring = (store: DocumentStore): Promise<LinkKeyring> =>
  openKeyring(store, LINK_KEYS, FIRST_KEY_ID);
