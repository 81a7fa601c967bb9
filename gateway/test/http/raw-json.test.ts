// A body with a member a service already serialised (RawJson) must go out as the very text
// `JSON.stringify` gives for the parsed member: the HTTP answer of a list does not change when its
// items arrive as JSON bytes.
import { once } from 'node:events';
import { get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import express from 'express';
import { RawJson, sendJson, spliceJson } from '../../src/http/raw-json.ts';

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

/** An app answering the body parsed (`/parsed`, res.json) and with its items as bytes (`/raw`). */
async function serve(etag: boolean): Promise<{ base: string; close: () => Promise<void> }> {
  const body = { ok: true, items, nextCursor: null, limit: 2 };
  const app = express();
  app.set('etag', etag);
  app.get('/parsed', (_req, res) => void res.status(200).json(body));
  app.get('/raw', (_req, res) => {
    sendJson(res, 200, { ...body, items: RawJson.of(Buffer.from(JSON.stringify(items))) });
  });
  const server: Server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const statusOf = (url: string, headers: Record<string, string>): Promise<number | undefined> =>
  new Promise((resolve, reject) => {
    get(url, { headers }, (res) => resolve(res.resume().statusCode)).on('error', reject);
  });

const answers = (base: string, init?: RequestInit) =>
  Promise.all([fetch(`${base}/parsed`, init), fetch(`${base}/raw`, init)]);

describe('sendJson', () => {
  let plain: Awaited<ReturnType<typeof serve>>;
  let tagged: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    [plain, tagged] = await Promise.all([serve(false), serve(true)]);
  });
  afterAll(() => Promise.all([plain.close(), tagged.close()]));

  it('answers the bytes and content headers res.json gives for the parsed body', async () => {
    const [parsed, raw] = await answers(plain.base);
    for (const header of ['content-type', 'content-length']) {
      expect(raw.headers.get(header)).toBe(parsed.headers.get(header));
    }
    expect(Buffer.from(await raw.arrayBuffer())).toEqual(Buffer.from(await parsed.arrayBuffer()));
  });

  it('answers HEAD with the same headers and no body', async () => {
    const [parsed, raw] = await answers(plain.base, { method: 'HEAD' });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-length')).toBe(parsed.headers.get('content-length'));
    expect((await raw.arrayBuffer()).byteLength).toBe(0);
  });

  it("keeps Express's ETag and its 304 where the app computes ETags", async () => {
    const [parsed, raw] = await answers(tagged.base);
    expect(raw.headers.get('etag')).toBe(parsed.headers.get('etag'));
    expect(Buffer.from(await raw.arrayBuffer())).toEqual(Buffer.from(await parsed.arrayBuffer()));
    // node:http, since fetch adds `Cache-Control: no-cache` to a conditional request.
    const again = await statusOf(`${tagged.base}/raw`, { 'if-none-match': raw.headers.get('etag') ?? '' });
    expect(again).toBe(304);
  });
});
