// Page size and cursors live in the kit: every service's lists use them.
export {
  DEFAULT_PAGE_LIMIT,
  listPage,
  MAX_PAGE_LIMIT,
  pageCursor,
  pageLimit,
  readPage,
} from '@fieldops/kit/domain/paging';
