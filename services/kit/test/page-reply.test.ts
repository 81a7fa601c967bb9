// A page reply written around its items_json (grpc/page-reply.ts) must be the very bytes the
// generated encoder writes, and must fall back to that encoder whenever its room cannot be used.
import { describe, expect, it } from '@jest/globals';
import { crm, deals } from '@fieldops/proto';
import { jsonArray, pageReplySerializer } from '../src/grpc/page-reply.ts';

const leadPages = crm.CrmServiceService.listLeads;
const dealPages = deals.DealServiceService.listDeals;

/** 50 renderings of ~350 bytes each, with characters UTF-8 writes in 2 to 4 bytes. */
const renderings = Array.from({ length: 50 }, (_, i) =>
  JSON.stringify({ id: `lead_${i}`, name: `Zoë Ångström ${i} 🛰`, message: 'x'.repeat(300) }),
);

/** What the generated encoder writes for the same reply, items_json an ordinary buffer. */
const generated = (serialize: (value: never) => Buffer, reply: object, json: Uint8Array) =>
  serialize({ ...reply, itemsJson: Buffer.from(json) } as never);

describe('page replies written around their items_json', () => {
  it('are byte for byte what the generated encoder writes, in the JSON buffer itself', () => {
    const serialize = pageReplySerializer(leadPages.responseSerialize, leadPages.responseDeserialize);
    const json = jsonArray(renderings);
    expect(json.byteLength).toBeGreaterThan(16_384); // a length of three varint bytes
    const reply = { items: [], nextCursor: 'c'.repeat(120) };
    const expected = generated(leadPages.responseSerialize, reply, json);

    const message = serialize({ ...reply, itemsJson: json });

    expect(message).toEqual(expected);
    expect(message.buffer).toBe(json.buffer);
    expect(
      JSON.parse(Buffer.from(leadPages.responseDeserialize(message).itemsJson ?? []).toString()),
    ).toEqual(renderings.map((text) => JSON.parse(text)));
  });

  it('find items_json under its own field number (4 in a deal page, after the pipeline summary)', () => {
    const serialize = pageReplySerializer(dealPages.responseSerialize, dealPages.responseDeserialize);
    const json = jsonArray(renderings.slice(0, 3));
    const reply = {
      items: [],
      nextCursor: 'next',
      pipeline: {
        stageCounts: { Qualified: 2, Won: 1 },
        openValue: { cents: 120_000, currency: 'EUR' },
        openCount: 2,
      },
    };
    const expected = generated(dealPages.responseSerialize, reply, json);

    const message = serialize({ ...reply, itemsJson: json });

    expect(message).toEqual(expected);
    expect(message.buffer).toBe(json.buffer);
  });

  it('use the generated encoder when the other fields do not fit in front of the JSON', () => {
    const serialize = pageReplySerializer(leadPages.responseSerialize, leadPages.responseDeserialize);
    const json = jsonArray(renderings.slice(0, 2));
    const reply = { items: [], nextCursor: 'c'.repeat(4_000) };

    const message = serialize({ ...reply, itemsJson: json });

    expect(message).toEqual(generated(leadPages.responseSerialize, reply, json));
    expect(message.buffer).not.toBe(json.buffer);
  });

  it('never write in front of a buffer jsonArray did not make (it may be a slice of a shared pool)', () => {
    const serialize = pageReplySerializer(leadPages.responseSerialize, leadPages.responseDeserialize);
    const pool = Buffer.from(`neighbour[${renderings[0] ?? ''}]`);
    const json = pool.subarray('neighbour'.length);
    const reply = { items: [], nextCursor: 'next' };

    const message = serialize({ ...reply, itemsJson: json });

    expect(message).toEqual(generated(leadPages.responseSerialize, reply, json));
    expect(pool.subarray(0, 'neighbour'.length).toString()).toBe('neighbour');
  });

  it('write a reply around its JSON once; serialized again, it is encoded the generated way, unchanged', () => {
    const serialize = pageReplySerializer(leadPages.responseSerialize, leadPages.responseDeserialize);
    const json = jsonArray(renderings.slice(0, 5));
    const reply = { items: [], nextCursor: 'next', itemsJson: json };

    const first = Buffer.from(serialize(reply));
    const second = serialize({ ...reply, nextCursor: 'other' });

    expect(first).toEqual(generated(leadPages.responseSerialize, { items: [], nextCursor: 'next' }, json));
    expect(second).toEqual(generated(leadPages.responseSerialize, { items: [], nextCursor: 'other' }, json));
    expect(second.buffer).not.toBe(json.buffer);
  });

  it('leave replies without items_json to the generated encoder', () => {
    const details = crm.CrmServiceService.getLead;
    expect(pageReplySerializer(details.responseSerialize, details.responseDeserialize)).toBe(
      details.responseSerialize,
    );
  });
});
