// What the tests of a list answering itemsAsJson compare: each page read both ways, the JSON side
// as the gateway would send it, the items side as the gateway would have decoded and stringified
// it. Imported only by tests.
import type { ItemCodec } from '../domain/paging.ts';
import type { common } from '@fieldops/proto';

interface ListReply<V> {
  items: V[];
  nextCursor: string;
  itemsJson?: Uint8Array;
}

export interface PageBothWays {
  /** The itemsAsJson answer: its (empty) items, its bytes as text and its cursor. */
  json: { items: number; text: string; nextCursor: string };
  /** The protobuf answer, each item through the wire (encode, decode), stringified. */
  items: { items: number; text: string; nextCursor: string };
}

/** Every page of a list, `limit` at a time, read with and without itemsAsJson. */
export async function pagesBothWays<V>(
  list: (page: common.PageRequest) => Promise<ListReply<V>>,
  codec: ItemCodec<V>,
  limit = 2,
): Promise<PageBothWays[]> {
  const pages: PageBothWays[] = [];
  let cursor = '';
  do {
    const plain = await list({ cursor, limit });
    const json = await list({ cursor, limit, itemsAsJson: true });
    const wire = plain.items.map((item) => codec.decode(codec.encode(item).finish()));
    pages.push({
      json: {
        items: json.items.length,
        text: Buffer.from(json.itemsJson ?? []).toString(),
        nextCursor: json.nextCursor,
      },
      items: { items: 0, text: JSON.stringify(wire), nextCursor: plain.nextCursor },
    });
    cursor = plain.nextCursor;
  } while (cursor);
  return pages;
}
