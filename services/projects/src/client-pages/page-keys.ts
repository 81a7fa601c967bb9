// The keyring that signs client page links, kept in the projects service's own store (see the
// kit's openLinkKeyring).
import { openLinkKeyring, type LinkKeyring } from '@fieldops/kit/domain';
import type { DocumentStore } from '@fieldops/kit/store';
import { PAGE_KEYS } from '../collections.ts';

export type PageKeyring = LinkKeyring;

const FIRST_KEY_ID = 'p1';

export const openPageKeyring = (store: DocumentStore): Promise<PageKeyring> =>
  openLinkKeyring(store, PAGE_KEYS, FIRST_KEY_ID);
