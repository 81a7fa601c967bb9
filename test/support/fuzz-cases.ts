// Hostile requests generated from the endpoint registry (not a hand list): for every operation,
// malformed JSON, wrong types and oversized values per declared field (each checked against the
// field's own schema, so the value is certainly refused), deep nesting, prototype keys, oversized
// bodies, bad path encodings, bad limits and cursors, and bad headers. Every write case is invalid
// by construction, so none may change anything. Seeded: the same seed sends the same requests.
import type { z } from 'zod';
import type { EndpointDef } from '@fieldops/gateway';

export interface FuzzCase {
  operationId: string;
  what: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer | string;
  /** A write: must be refused (4xx), since it is invalid by construction. */
  write: boolean;
}

/** mulberry32: a small seeded PRNG, so a failing run can be replayed with its seed. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BAD_SEGMENTS = [
  '%',
  '%FF',
  '%E0%A4%A',
  '%ED%A0%80',
  '%C0%AE%C0%AE',
  '__proto__',
  'constructor',
  'x'.repeat(4000),
];
const WRONG_VALUES: unknown[] = [12345, -1, 1e308, 'text', '', true, null, [], [1, 'two'], {}, { $gt: '' }];
const BAD_LIMITS = ['-1', '0', 'abc', '1e309', '99999999999999999999', '1.5', '', '%FF', '0x10'];
const BAD_CURSORS = ['garbage', '%FF%FE', 'x'.repeat(5000), 'eyJ0IjoidGVuX290aGVyIn0', '__proto__'];
const MALFORMED_JSON = ['{', '{"a":', '[1,2', 'nul', '{"a":1}}', "{'a':1}", '{"a":NaN}', '\u0000'];
const NOT_OBJECTS = ['[]', '1', '"s"', 'null', 'true'];
const PROTO_BODIES = [
  '{"__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"prototype":{"polluted":"yes"}}',
];

/** Write-side headers, each bad on its own; sent with a body that is refused anyway. */
const BAD_HEADERS: Record<string, string>[] = [
  { 'idempotency-key': 'k'.repeat(65) },
  { 'x-agent-run-id': 'r'.repeat(501) },
  { 'x-agent-task': 't'.repeat(501) },
  { 'x-agent-model': 'm'.repeat(201) },
  { 'x-agent-confirmed-by': 'c'.repeat(201) },
  { 'if-match': '"' },
  { 'if-match': 'W/' },
  { 'x-service-dry-run': '2' },
  { 'x-service-confirm': 'not-a-token' },
  { 'content-type': 'text/plain' },
  { 'content-type': 'application/json; charset=utf-16' },
  { 'content-type': 'application/json; charset=bogus-9' },
  { 'content-type': 'application/x-www-form-urlencoded' },
  { 'content-encoding': 'x-fuzz' },
  { 'content-encoding': 'gzip' },
  { 'content-encoding': 'br' },
  { 'content-encoding': 'gzip, deflate' },
];

const fillPath = (path: string, values: Record<string, string> = {}): string =>
  `/api/v1${path.replace(/:(\w+)/g, (_, name: string) => values[name] ?? 'fz_1')}`;

const paramNames = (path: string): string[] => [...path.matchAll(/:(\w+)/g)].map((m) => m[1] ?? '');

function randomBytes(random: () => number, length: number): Buffer {
  return Buffer.from(Array.from({ length }, () => Math.floor(random() * 256)));
}

function deepNesting(depth: number): string {
  return `{"fuzz":${'['.repeat(depth)}${']'.repeat(depth)}}`;
}

/** The declared body fields, each with its schema (empty for an endpoint without a body). */
function fieldsOf(endpoint: EndpointDef): [string, z.ZodType][] {
  return endpoint.body ? Object.entries(endpoint.body.shape as Record<string, z.ZodType>) : [];
}

/** Values certainly refused by `schema`: wrong types, and a string far over any limit. */
function refusedValues(schema: z.ZodType): unknown[] {
  const candidates = [...WRONG_VALUES, 's'.repeat(20_000)];
  return candidates.filter((value) => !schema.safeParse(value).success);
}

interface Builder {
  endpoint: EndpointDef;
  write: boolean;
  token: string;
  out: FuzzCase[];
}

function add(b: Builder, what: string, init: Partial<FuzzCase>): void {
  b.out.push({
    operationId: b.endpoint.operationId,
    what,
    method: b.endpoint.method,
    path: fillPath(b.endpoint.path),
    write: b.write,
    ...init,
    headers: {
      authorization: `Bearer ${b.token}`,
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...init.headers,
    },
  });
}

/** A body every write refuses: an unknown field (or a body where none is taken). */
const REFUSED_BODY = '{"__fuzz_unknown_field":1}';

function pathCases(b: Builder): void {
  for (const name of paramNames(b.endpoint.path)) {
    for (const segment of BAD_SEGMENTS) {
      add(b, `path ${name}=${segment.slice(0, 20)}`, {
        path: fillPath(b.endpoint.path, { [name]: segment }),
        ...(b.write ? { body: REFUSED_BODY } : {}),
      });
    }
  }
}

function bodyCases(b: Builder, random: () => number): void {
  for (const text of [...MALFORMED_JSON, ...NOT_OBJECTS, ...PROTO_BODIES])
    add(b, `body ${text}`, { body: text });
  add(b, 'body of random bytes', { body: randomBytes(random, 64) });
  add(b, 'body not UTF-8', { body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]) });
  add(b, 'deep nesting', { body: deepNesting(20_000) });
  add(b, 'body over the limit', { body: `{"fuzz":"${'z'.repeat(1_100_000)}"}` });
  for (const [field, schema] of fieldsOf(b.endpoint)) {
    for (const value of refusedValues(schema)) {
      add(b, `${field}=${JSON.stringify(value).slice(0, 20)}`, { body: JSON.stringify({ [field]: value }) });
    }
    add(b, `${field} beside __proto__`, { body: `{"__proto__":{"polluted":"yes"},"${field}":12345}` });
  }
}

function queryCases(b: Builder): void {
  const base = fillPath(b.endpoint.path);
  const body = b.write ? { body: REFUSED_BODY } : {};
  if (b.endpoint.list) {
    for (const limit of BAD_LIMITS) add(b, `limit=${limit}`, { path: `${base}?limit=${limit}`, ...body });
    for (const cursor of BAD_CURSORS) {
      add(b, `cursor=${cursor.slice(0, 20)}`, { path: `${base}?cursor=${cursor}`, ...body });
    }
    add(b, 'limit twice', { path: `${base}?limit=1&limit=2`, ...body });
  }
  add(b, 'unknown query __proto__', { path: `${base}?__proto__=1&constructor=2`, ...body });
  add(b, 'query a[b]=c', { path: `${base}?a[b]=c&a[c]=d`, ...body });
}

function headerCases(b: Builder): void {
  for (const headers of BAD_HEADERS) {
    add(b, `header ${Object.entries(headers)[0]?.join('=').slice(0, 40) ?? ''}`, {
      body: REFUSED_BODY,
      headers,
    });
  }
}

/** Every case for one operation. */
export function casesFor(endpoint: EndpointDef, token: string, random: () => number): FuzzCase[] {
  const b: Builder = { endpoint, write: endpoint.method !== 'GET', token, out: [] };
  pathCases(b);
  queryCases(b);
  if (b.write) {
    bodyCases(b, random);
    headerCases(b);
  }
  return b.out;
}

/**
 * The cases of every operation, interleaved (each operation's first case, then each one's
 * second, …) after a seeded shuffle of each list, so a run cut short by its time budget still
 * reaches every operation.
 */
export function fuzzPlan(registry: readonly EndpointDef[], token: string, seed: number): FuzzCase[] {
  const random = prng(seed);
  const lists = registry.map((endpoint) => shuffle(casesFor(endpoint, token, random), random));
  const longest = Math.max(0, ...lists.map((list) => list.length));
  const plan: FuzzCase[] = [];
  for (let i = 0; i < longest; i += 1) {
    for (const list of lists) if (list[i]) plan.push(list[i] as FuzzCase);
  }
  return plan;
}

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}
