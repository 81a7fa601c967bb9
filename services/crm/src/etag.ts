// Etags and If-Match live in the kit: every service's amendable records use them.
export { assertIfMatch, etagOf } from '@fieldops/kit/domain/etag';
