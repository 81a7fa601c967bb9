// The HTTP edge through real sockets: every protocol-level failure (a path that does not decode, a
// body over the limit or a decompression bomb, an encoding or charset we do not read, a body that
// does not inflate) answers the spec's envelope with its own status and a non-retryable code, and
// changes nothing.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestPlatform, type Client, type TestPlatform } from './support/harness.ts';
import { rawRequest } from './support/raw-http.ts';

let platform: TestPlatform;
let api: Client;
let token: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  const tenant = await platform.tenant('Edge');
  api = tenant.api;
  token = tenant.token;
});

afterAll(async () => {
  await platform.stop();
});

/** A request sent byte for byte as given, with the tenant's token. */
async function raw(method: string, path: string, headers: Record<string, string> = {}, body?: Buffer) {
  const reply = await rawRequest(platform.url, {
    method,
    path,
    headers: { authorization: `Bearer ${token}`, ...headers },
    ...(body ? { body } : {}),
  });
  return { ...reply, body: reply.body ?? {} };
}

const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));

async function customerCount(): Promise<number> {
  const page = await api.get('/customers?limit=100');
  return (page.body.items as unknown[]).length;
}

describe('path parameters', () => {
  it.each(['%E0%A4%A', '%', '%FF', '%ED%A0%80', '%C0%AE%C0%AE'])(
    'GET /customers/%s is 400 field_invalid naming id',
    async (bad) => {
      const reply = await raw('GET', `/api/v1/customers/${bad}`);
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ ok: false, code: 'field_invalid', field: 'id', retryable: false });
      expect(reply.headers['x-ratelimit-bucket']).toBe('reads');
    },
  );

  it('names the parameter a nested path puts the bad segment on', async () => {
    const reply = await raw('GET', '/api/v1/projects/prj_1/records/%FF');
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'field_invalid', field: 'recordId' });
  });

  it('a path outside the registry still gets the envelope', async () => {
    const reply = await raw('GET', '/nowhere/%FF');
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ ok: false, code: 'field_invalid', field: 'path', retryable: false });
  });
});

describe('bodies', () => {
  it('a body over 1 MiB is 413 payload_too_large stating the limit, and creates nothing', async () => {
    const before = await customerCount();
    const reply = await raw(
      'POST',
      '/api/v1/customers',
      { 'content-type': 'application/json' },
      json({ name: 'x'.repeat(2 * 1024 * 1024) }),
    );
    expect(reply.status).toBe(413);
    expect(reply.body).toMatchObject({
      ok: false,
      code: 'payload_too_large',
      retryable: false,
      limitBytes: 1024 * 1024,
    });
    expect(String(reply.body.error)).toContain('1 MiB');
    expect(await customerCount()).toBe(before);
  });

  it('a small gzip that inflates past the limit is refused by its inflated size', async () => {
    const bomb = gzipSync(json({ name: 'y'.repeat(20 * 1024 * 1024) }));
    expect(bomb.length).toBeLessThan(64 * 1024);
    const reply = await raw(
      'POST',
      '/api/v1/customers',
      { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      bomb,
    );
    expect(reply.status).toBe(413);
    expect(reply.body).toMatchObject({ code: 'payload_too_large', retryable: false });
  });

  it('a gzip body within the limit is read', async () => {
    const reply = await raw(
      'POST',
      '/api/v1/customers',
      { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      gzipSync(json({ name: 'Gzipped Ltd' })),
    );
    expect(reply.status).toBe(201);
  });

  it.each(['gzip', 'deflate', 'br'])(
    'Content-Encoding %s on an uncompressed body is 400 invalid_body',
    async (encoding) => {
      const reply = await raw(
        'POST',
        '/api/v1/customers',
        { 'content-type': 'application/json', 'content-encoding': encoding },
        json({ name: 'Plain' }),
      );
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ ok: false, code: 'invalid_body', retryable: false });
    },
  );

  it('an unknown Content-Encoding is 415 unsupported_media_type naming it', async () => {
    const reply = await raw(
      'POST',
      '/api/v1/customers',
      { 'content-type': 'application/json', 'content-encoding': 'x-fuzz' },
      json({ name: 'Fuzz' }),
    );
    expect(reply.status).toBe(415);
    expect(reply.body).toMatchObject({
      ok: false,
      code: 'unsupported_media_type',
      encoding: 'x-fuzz',
      retryable: false,
    });
  });

  it.each(['utf-16', 'bogus-9', 'ISO-8859-1'])('JSON in charset=%s is 415', async (charset) => {
    const before = await customerCount();
    const reply = await raw(
      'POST',
      '/api/v1/customers',
      { 'content-type': `application/json; charset=${charset}` },
      json({ name: 'Charset' }),
    );
    expect(reply.status).toBe(415);
    expect(reply.body).toMatchObject({
      code: 'unsupported_media_type',
      charset: charset.toLowerCase(),
      retryable: false,
    });
    expect(await customerCount()).toBe(before);
  });

  it('JSON declared as UTF-8 is read', async () => {
    const reply = await raw(
      'POST',
      '/api/v1/customers',
      { 'content-type': 'application/json; charset="UTF-8"' },
      json({ name: 'Utf8 Ltd' }),
    );
    expect(reply.status).toBe(201);
  });

  it('a body cut short of its Content-Length is refused, not a 500', async () => {
    const reply = await raw(
      'POST',
      '/api/v1/customers',
      { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      gzipSync(json({ name: 'Cut' })).subarray(0, 12),
    );
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'invalid_body', retryable: false });
  });

  it('the operator API refuses an oversized body with the same envelope', async () => {
    const reply = await raw(
      'POST',
      '/admin/v1/tenants',
      { 'content-type': 'application/json', authorization: 'Bearer test-admin-secret' },
      json({ name: 'z'.repeat(200 * 1024) }),
    );
    expect(reply.status).toBe(413);
    expect(reply.body).toMatchObject({ code: 'payload_too_large', limitBytes: 100 * 1024 });
  });
});

describe('the contract', () => {
  it('declares the edge statuses and codes on every operation', async () => {
    const doc = (await platform.anonymous.get('/openapi.json')).body as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>>;
    };
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.values(ops).map((op) => ({ path, op })),
    );
    expect(operations.length).toBeGreaterThan(50);
    for (const { path, op } of operations) {
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['400', '413', '415', '500']));
      const codes = JSON.stringify(op.responses['413']);
      expect(codes).toContain('payload_too_large');
      if (path.includes('{')) expect(JSON.stringify(op.responses['400'])).toContain('field_invalid');
    }
  });
});
