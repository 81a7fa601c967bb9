// One way to page identity lists: newest or oldest first by createdAt, the store's opaque cursor,
// and a malformed cursor answered as the spec's field_invalid instead of a 500.
import { AppError } from '@fieldops/kit';
import { InvalidCursor, type Doc, type DocumentStore, type Filter, type Page } from '@fieldops/kit/store';

export interface ListQuery {
  cursor?: string;
  limit: number;
}

export async function pageOf<D extends Doc, T>(
  store: DocumentStore,
  collection: string,
  tenantId: string,
  query: ListQuery,
  map: (doc: D) => T,
  direction: 'asc' | 'desc',
  filter: Filter = {},
): Promise<Page<T>> {
  try {
    const page = await store.page<D>(collection, tenantId, {
      filter,
      sort: { field: 'createdAt', direction },
      limit: query.limit,
      ...(query.cursor ? { cursor: query.cursor } : {}),
    });
    return { items: page.items.map(map), nextCursor: page.nextCursor };
  } catch (err) {
    if (err instanceof InvalidCursor) {
      throw new AppError(
        'field_invalid',
        'cursor is not valid here; pass the nextCursor of the previous page.',
        {
          field: 'cursor',
        },
      );
    }
    throw err;
  }
}
