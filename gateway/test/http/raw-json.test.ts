// A body with a member a service already serialised (RawJson) must go out as the very text
// `JSON.stringify` gives for the parsed member: the HTTP answer of a list does not change when its
// items arrive as JSON bytes.
import { describe, expect, it } from '@jest/globals';
import { RawJson, spliceJson } from '../../src/http/raw-json.js';

const items = [
  { id: 'lead_1', name: 'Ana "Roofing"', email: undefined, score: 40, customerMatch: { id: 'c' } },
  { id: 'lead_2', name: 'Bø ✓ \u2028', phone: '+44', tags: [], score: 0 },
];

describe('spliceJson', () => {
  it('gives the text JSON.stringify gives with the member parsed, skipping undefined members', () => {
    const body = { ok: true, items, nextCursor: null, skipped: undefined, limit: 50 };
    const raw = { ...body, items: RawJson.of(Buffer.from(JSON.stringify(items))) };
    expect(spliceJson(raw)).toBe(JSON.stringify(body));
  });

  it('splices an empty page and bytes that are a view into a larger buffer', () => {
    const whole = Buffer.from(`xx${JSON.stringify([])}yy`);
    const raw = { ok: true, items: RawJson.of(whole.subarray(2, 4)), nextCursor: 'abc' };
    expect(spliceJson(raw)).toBe(JSON.stringify({ ok: true, items: [], nextCursor: 'abc' }));
  });
});
