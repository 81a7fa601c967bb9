// @fieldops/kit/domain: the helpers domain services share to check fields, describe changes,
// page lists, compare ETags, sign links and dump a tenant.
export { actorOf } from './actor.js';
export { describeChanges, diffFields, setFields } from './changes.js';
export { createEffect, eventEffect, updateEffect } from './effects.js';
export { assertIfMatch, etagOf } from './etag.js';
export {
  checkEachLength,
  checkLengths,
  checkMaximums,
  cleanText,
  compact,
  emailKeyOf,
  patched,
  requiredName,
} from './fields.js';
export { itemJson, jsonArray, listPage, pageCursor, pageLimit, readPage } from './paging.js';
export { getOfProject } from './project-scoped.js';
export { newLinkNonce, openLinkKeyring, signLink, verifyLink, verifyRetirableLink } from './signed-links.js';
export type { LinkCheck, LinkClaims, LinkKey, LinkKeyring, RetirableLinkClaims } from './signed-links.js';
export { tenantDumpBinding } from './tenant-dump.js';
