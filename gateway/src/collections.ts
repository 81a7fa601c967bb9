// @fieldops/gateway/collections: the collections of the gateway's stores (identity, and the sync
// feed's projection), for the store catalogue and migrations, without loading the gateway.
export { C, defineCollections, IDENTITY_COLLECTIONS } from './identity/collections.ts';
export { CHANGE_FEED_COLLECTIONS } from './sync/change-feed.ts';
