// Page size and cursors for the list reads of every service.
import { AppError } from '../errors.js';
import { InvalidCursor } from '../store/cursor.js';
import type { Doc, DocumentStore, Page, PageQuery } from '../store/port.js';
import type { common } from '@fieldops/proto';

export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 100;

/** The gateway clamps limit already (and says so); this keeps a direct gRPC caller in range too. */
export function pageLimit(page: common.PageRequest | undefined): number {
  // 0 is what an absent limit decodes to in proto3.
  const limit = page?.limit ?? 0;
  if (limit === 0) return DEFAULT_PAGE_LIMIT;
  return Math.min(Math.max(Math.floor(limit), 1), MAX_PAGE_LIMIT);
}

export const pageCursor = (page: common.PageRequest | undefined): string | undefined =>
  page?.cursor || undefined;

/** Reads a page; a cursor that is not one of ours (or from another list) is the caller's 400. */
export async function readPage<T>(read: () => Promise<Page<T>>): Promise<Page<T>> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof InvalidCursor)) throw error;
    throw new AppError(
      'field_invalid',
      'cursor is not valid here; pass the nextCursor of the previous page of this same list unchanged.',
      { field: 'cursor' },
      { cause: error },
    );
  }
}

/**
 * One page of a tenant's list read, in the shape every List RPC answers: the caller's page size
 * and cursor applied (a foreign cursor is the caller's 400), each document shown through `view`.
 * A list that passes `canonical` (its item message's `fromPartial`) answers a page request with
 * `itemsAsJson` by `itemsJson` instead of `items`: the JSON of exactly what `items` would decode
 * to on the caller's side (same members, defaults and order), serialised once, here.
 */
export async function listPage<T extends Doc, V>(
  store: DocumentStore,
  collection: string,
  tenantId: string,
  page: common.PageRequest | undefined,
  query: Omit<PageQuery, 'limit' | 'cursor'>,
  view: (doc: T) => V,
  canonical?: (item: V) => V,
): Promise<{ items: V[]; nextCursor: string; itemsJson?: Buffer }> {
  const read = await readPage(() =>
    store.page<T>(collection, tenantId, { ...query, limit: pageLimit(page), cursor: pageCursor(page) }),
  );
  const nextCursor = read.nextCursor ?? '';
  if (canonical && page?.itemsAsJson) {
    const json = JSON.stringify(read.items.map((doc) => canonical(view(doc))));
    return { items: [], nextCursor, itemsJson: Buffer.from(json) };
  }
  return { items: read.items.map(view), nextCursor };
}
