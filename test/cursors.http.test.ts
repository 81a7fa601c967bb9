// List cursors are decoded strictly (services/kit/src/store/cursor.ts): a crafted cursor (an
// operator object or array where a sort value or id goes, a wrong type, an extra member, garbage
// base64) is the spec's 400 field_invalid on field cursor, never a 500 and never a page.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestPlatform, type ApiRequestPath, type Client, type TestPlatform } from './support/harness.js';

let platform: TestPlatform;
let api: Client;

const LISTS = ['/leads', '/customers', '/webhooks', '/audit'] as const;
/** A real nextCursor of each list, decoded: the crafted ones keep its sort and change one member. */
const issued = new Map<string, Record<string, unknown>>();

const encode = (value: unknown): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

beforeAll(async () => {
  platform = await startTestPlatform({ FIELDOPS_WEBHOOK_ALLOW_PRIVATE: '1' });
  ({ api } = await platform.tenant('Cursor Co'));
  for (const n of [1, 2, 3]) {
    expect((await api.post('/leads', { name: `Lead ${n}`, email: `l${n}@example.com` })).status).toBe(201);
    expect((await api.post('/customers', { name: `Customer ${n}`, stage: 'Active' })).status).toBe(201);
    const hook = await api.post('/webhooks', {
      url: `http://127.0.0.1:9/h${n}`,
      eventTypes: ['lead.created'],
    });
    expect(hook.status).toBe(201);
  }
  for (const list of LISTS) {
    const page = await api.get(`${list}?limit=1` as ApiRequestPath);
    expect(page.status).toBe(200);
    const cursor = String(page.body.nextCursor ?? '');
    expect(cursor).not.toBe('');
    // Sanity: the issued cursor is accepted.
    expect((await api.get(`${list}?limit=1&cursor=${cursor}` as ApiRequestPath)).status).toBe(200);
    issued.set(
      list,
      JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>,
    );
  }
}, 60_000);
afterAll(() => platform.stop());

/** Crafted cursors for one list, each named. */
function crafted(list: string): [string, string][] {
  const real = issued.get(list)!;
  const withMember = (key: string, value: unknown) => encode({ ...real, [key]: value });
  return [
    ['sort value {"$gt":""}', withMember('v', { $gt: '' })],
    ['sort value {"$ne":null}', withMember('v', { $ne: null })],
    ['sort value an array', withMember('v', ['a', 'b'])],
    ['sort value true', withMember('v', true)],
    ['id {"$gt":""}', withMember('i', { $gt: '' })],
    ['id a number', withMember('i', 42)],
    ['id empty', withMember('i', '')],
    ['field an object', withMember('f', { $where: 'sleep(1000)' })],
    ['direction another word', withMember('d', 'sideways')],
    ['an extra member', withMember('$where', '1')],
    ['sort value missing', encode({ f: real.f, d: real.d, i: real.i })],
    ['an array', encode([real.f, real.d, real.v, real.i])],
    ['a JSON string', encode('cursor')],
    ['JSON null', encode(null)],
    ['garbage base64', 'bm90IGpzb24'],
    ['not base64url', 'eyJmIjoi%2B%2F%3D'],
    ['a raw JSON object', encodeURIComponent(JSON.stringify(real))],
  ];
}

describe.each(LISTS)('GET %s with an overlong cursor', (list) => {
  it('answers 400 field_too_long on cursor (the edge limits query values before any decoding)', async () => {
    const reply = await api.get(
      `${list}?cursor=${encode({ ...issued.get(list), i: 'x'.repeat(5000) })}` as ApiRequestPath,
    );
    expect([reply.status, reply.body.code, reply.body.field, reply.body.items]).toEqual([
      400,
      'field_too_long',
      'cursor',
      undefined,
    ]);
  });
});

describe.each(LISTS)('GET %s with a crafted cursor', (list) => {
  it('answers 400 field_invalid on cursor for every one, and no page', async () => {
    const answers = [];
    for (const [name, cursor] of crafted(list)) {
      const reply = await api.get(`${list}?cursor=${cursor}` as ApiRequestPath);
      answers.push({
        name,
        status: reply.status,
        code: reply.body.code,
        field: reply.body.field,
        items: reply.body.items,
      });
    }
    expect(answers).toEqual(
      crafted(list).map(([name]) => ({
        name,
        status: 400,
        code: 'field_invalid',
        field: 'cursor',
        items: undefined,
      })),
    );
  });
});
