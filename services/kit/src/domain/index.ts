// @fieldops/kit/domain: the helpers domain services share to check fields, describe changes,
// page lists, compare ETags, sign links and dump a tenant.
export { actorOf } from './actor.ts';
export type { Complete } from './complete.ts';
export { describeChanges, diffFields, setFields } from './changes.ts';
export { createEffect, eventEffect, updateEffect } from './effects.ts';
export { assertIfMatch, etagOf } from './etag.ts';
export {
  checkEachLength,
  checkLengths,
  checkMaximums,
  cleanText,
  compact,
  emailKeyOf,
  patched,
  requiredName,
} from './fields.ts';
export { listRpcOf, NEWEST_FIRST } from './list-rpc.ts';
export type { ListAnswer, ListQuery } from './list-rpc.ts';
export { itemJson, listPage, pageCursor, pageLimit, readPage } from './paging.ts';
export { jsonArray } from '../grpc/page-reply.ts';
export { getOfProject, getOrNotFound } from './project-scoped.ts';
export { newLinkNonce, openLinkKeyring, signLink, verifyLink, verifyRetirableLink } from './signed-links.ts';
export type { LinkCheck, LinkClaims, LinkKey, LinkKeyring, RetirableLinkClaims } from './signed-links.ts';
export { tenantDumpBinding } from './tenant-dump.ts';
