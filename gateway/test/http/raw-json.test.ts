// A body with a member a service already serialised (RawJson) must go out as the very text
// `JSON.stringify` gives for the parsed member: the HTTP answer of a list does not change when its
// items arrive as JSON bytes.
import { once } from 'node:events';
import type { Server } from 'node:http';
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

describe('sendJson', () => {
  let server: Server;
  let base: string;
  const body = { ok: true, items, nextCursor: null, limit: 2 };

  beforeAll(async () => {
    const app = express();
    app.set('etag', false);
    app.get('/parsed', (_req, res) => void res.status(200).json(body));
    app.get('/raw', (_req, res) => {
      sendJson(res, 200, { ...body, items: RawJson.of(Buffer.from(JSON.stringify(items))) });
    });
    server = app.listen(0);
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('answers the bytes and content headers res.json gives for the parsed body', async () => {
    const [parsed, raw] = await Promise.all([fetch(`${base}/parsed`), fetch(`${base}/raw`)]);
    for (const header of ['content-type', 'content-length']) {
      expect(raw.headers.get(header)).toBe(parsed.headers.get(header));
    }
    expect(Buffer.from(await raw.arrayBuffer())).toEqual(Buffer.from(await parsed.arrayBuffer()));
  });
});
