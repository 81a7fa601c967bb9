// How many entries one page read may examine before it answers with what it has found, on every
// adapter: the embedded store counts index entries it walks (embedded.ts), the MongoDB store limits
// the documents a `$contains` page tests (mongo/page-query.ts). A filter an index pins is answered
// exactly; what remains (a free-text q, a scope list) is tested per entry, and this bound keeps such
// a page's cost independent of the size of the tenant: the page then holds fewer items than asked
// for, and its nextCursor continues after the last entry examined (docs/performance.md).
export const PAGE_EXAMINE_LIMIT = 5000;
