// A bytes field decodes as a view of the message it came in, not as a copy. A list page's items
// (items_json, 15-20 KB for a page of 50) and every call's signed context are bytes fields; ts-proto's
// `env=node` wrapped each decoded field in `Buffer.from(...)`, a copy outside V8's heap per call,
// and those copies brought the gateway's full heap collections on about twice as often
// (docs/performance.md, "A page's bytes, copied once less"). `env=both` in buf.gen.yaml keeps the
// view; this pins it.
import { describe, expect, it } from '@jest/globals';
import { common, crm } from '../src/index.ts';

describe('bytes fields', () => {
  it("decode a page's items_json as a view of the received message", () => {
    const itemsJson = Buffer.from(JSON.stringify([{ id: 'lead_1', name: 'Ana' }]));
    const message = crm.LeadPage.encode({ items: [], nextCursor: 'c', itemsJson }).finish();
    const decoded = crm.LeadPage.decode(message);
    expect(Buffer.from(decoded.itemsJson ?? [])).toEqual(itemsJson);
    expect(decoded.itemsJson?.buffer).toBe(message.buffer);
  });

  it("decode a call's signed context as views of the received message", () => {
    const grant = { claims: Buffer.from('{"iss":"gateway"}'), signature: Buffer.alloc(64, 7), signer: '' };
    const message = common.ContextGrant.encode(grant).finish();
    const decoded = common.ContextGrant.decode(message);
    expect([Buffer.from(decoded.claims), Buffer.from(decoded.signature)]).toEqual([
      grant.claims,
      grant.signature,
    ]);
    expect(decoded.claims.buffer).toBe(message.buffer);
    expect(decoded.signature.buffer).toBe(message.buffer);
  });
});
