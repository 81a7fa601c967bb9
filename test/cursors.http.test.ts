// List cursors carry an HMAC (gateway/src/pipeline/cursor-seal.ts) bound to the tenant and the
// list: a forged, edited or borrowed cursor is the spec's 400 field_invalid on field cursor with a
// sentence. Behind the MAC they are decoded strictly (services/kit/src/store/cursor.ts): a crafted
// cursor (an operator object or array where a sort value or id goes, a wrong type, an extra member,
// garbage base64) is refused too, even sealed with the real key, never a 500 and never a page.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestPlatform, type ApiRequestPath, type Client, type TestPlatform } from './support/harness.ts';

let platform: TestPlatform;
let api: Client;
let tenantId: string;

/** The suite's FIELDOPS_CURSOR_KEY: the tests seal as the gateway does, to reach the decoder behind. */
const CURSOR_KEY = 'cursor-suite-key-0123456789abcdefghijklmnop';
const OPERATIONS: Record<string, string> = {
  '/leads': 'listLeads',
  '/customers': 'listCustomers',
  '/webhooks': 'listWebhooks',
  '/audit': 'listAudit',
};
const seal = (cursor: string, list: string, tenant = tenantId): string =>
  `${cursor}.${createHmac('sha256', CURSOR_KEY)
    .update(`${tenant}\n${OPERATIONS[list]}\n${cursor}`)
    .digest()
    .subarray(0, 16)
    .toString('base64url')}`;
const unsealed = (cursor: string): string => cursor.slice(0, cursor.lastIndexOf('.'));
/** The real nextCursor of each list, as answered. */
const sealedOf = new Map<string, string>();

const LISTS = ['/leads', '/customers', '/webhooks', '/audit'] as const;
/** A real nextCursor of each list, decoded: the crafted ones keep its sort and change one member. */
const issued = new Map<string, Record<string, unknown>>();

const encode = (value: unknown): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

beforeAll(async () => {
  platform = await startTestPlatform({
    FIELDOPS_WEBHOOK_ALLOW_PRIVATE: '1',
    FIELDOPS_CURSOR_KEY: CURSOR_KEY,
  });
  ({ api, tenantId } = await platform.tenant('Cursor Co'));
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
    // The suite's key and operation names are the gateway's: its seal is reproduced exactly.
    expect(seal(unsealed(cursor), list)).toBe(cursor);
    sealedOf.set(list, cursor);
    issued.set(
      list,
      JSON.parse(Buffer.from(unsealed(cursor), 'base64url').toString('utf8')) as Record<string, unknown>,
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

describe.each(LISTS)('GET %s with a forged, edited or borrowed cursor', (list) => {
  const refusedWithSentence = async (cursor: string) => {
    const reply = await api.get(`${list}?cursor=${cursor}` as ApiRequestPath);
    expect([reply.status, reply.body.code, reply.body.field, reply.body.items]).toEqual([
      400,
      'field_invalid',
      'cursor',
      undefined,
    ]);
    expect(reply.body.error).toMatch(
      /cursor was not issued for this list, or was changed; pass the nextCursor/,
    );
  };

  it('refuses a well-formed position without the MAC, or with the MAC of another position', async () => {
    const real = sealedOf.get(list)!;
    const edited = encode({ ...issued.get(list), i: 'zzz_edited' });
    await refusedWithSentence(edited);
    await refusedWithSentence(`${edited}.${real.slice(real.lastIndexOf('.') + 1)}`);
    await refusedWithSentence(`${unsealed(real)}.${'A'.repeat(22)}`);
  });

  it("refuses another list's cursor and another tenant's, each sealed by the gateway", async () => {
    const other = LISTS.find((l) => l !== list)!;
    await refusedWithSentence(seal(unsealed(sealedOf.get(other)!), other));
    await refusedWithSentence(seal(unsealed(sealedOf.get(list)!), list, 'ten_another'));
  });
});

describe.each(LISTS)('GET %s with a crafted cursor', (list) => {
  it('answers 400 field_invalid on cursor for every one, sealed with the real key or not, and no page', async () => {
    const answers = [];
    const everyOne = crafted(list).flatMap(([name, cursor]): [string, string][] => [
      [name, cursor],
      [`${name}, sealed`, seal(cursor, list)],
    ]);
    for (const [name, cursor] of everyOne) {
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
      everyOne.map(([name]) => ({
        name,
        status: 400,
        code: 'field_invalid',
        field: 'cursor',
        items: undefined,
      })),
    );
  });
});
