// Keyed writes against a platform child process, and the exactly-once check the crash tests make
// after it restarted: every key maps to one lead, the audit trail holds one entry per lead under
// its key, and the hash chain verifies. Shared by crash.http.test.ts and restart-crash.http.test.ts.
import { expect } from '@jest/globals';
import type { PlatformChild } from './platform-child.ts';

const REQUEST_TIMEOUT_MS = 10_000;

type Body = Record<string, unknown>;

export interface Reply {
  status: number;
  body: Body;
}

export interface Lead {
  id: string;
  name: string;
}

export interface AuditEntry {
  id: string;
  eventId: string;
  action: string;
  resourceKind: string;
  resourceId: string;
  idempotencyKey: string;
}

type Child = Pick<PlatformChild, 'url'>;

export async function call(
  url: string,
  bearer: string,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${bearer}`,
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Body };
}

/** A fresh tenant and a Manager token, through the operator API. */
export async function newTenant(child: Child, name: string, adminSecret: string): Promise<string> {
  const tenant = await call(child.url, adminSecret, 'POST', '/admin/v1/tenants', { body: { name } });
  expect(tenant.status).toBe(201);
  const tenantId = (tenant.body.tenant as { id: string }).id;
  const token = await call(child.url, adminSecret, 'POST', `/admin/v1/tenants/${tenantId}/tokens`, {
    body: { role: 'Manager' },
  });
  expect(token.status).toBe(201);
  return (token.body.token as { secret: string }).secret;
}

/** The one name a key's write carries, first time and on every retry. */
export const nameOf = (key: string): string => `Crash Lead ${key}`;

export const createLead = (child: Child, token: string, key: string): Promise<Reply> =>
  call(child.url, token, 'POST', '/api/v1/leads', {
    body: { name: nameOf(key) },
    headers: { 'idempotency-key': key },
  });

/** Every item of a paged list, following nextCursor to the end. */
export async function readAll<T>(child: Child, token: string, path: string): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
    const page = await call(child.url, token, 'GET', `${path}?limit=100${query}`);
    expect(page.status).toBe(200);
    items.push(...(page.body.items as T[]));
    cursor = page.body.nextCursor as string | null;
  } while (cursor !== null);
  return items;
}

/** The length of the tenant's audit chain, as its verification reads it now. */
async function chainLength(child: Child, token: string): Promise<number> {
  const verify = await call(child.url, token, 'GET', '/api/v1/audit/verify');
  expect(verify.status).toBe(200);
  return verify.body.length as number;
}

/**
 * The audit trail once it has settled: entries arrive through the outbox relay and the event-log
 * consumer, after the write answered, and not only the leads' (exports and capture runs that end
 * after the load append theirs too). Waits until `expected` lead entries are there and a whole
 * read of the trail begins and ends on the same chain length, equal to what it read: an entry
 * appended while the trail was being paged through would otherwise be in the chain and not in
 * the list. The wait before the last read still lets a late duplicate (a redelivery after the
 * crash) show.
 */
async function settledTrail(child: Child, token: string, expected: number): Promise<AuditEntry[]> {
  // Generous: on a cluster the entries cross Kafka from a service that has just restarted.
  const deadline = Date.now() + 60_000;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = await chainLength(child, token);
    const entries = await readAll<AuditEntry>(child, token, '/api/v1/audit');
    const after = await chainLength(child, token);
    const leads = entries.filter((entry) => entry.resourceKind === 'lead').length;
    const settled = leads >= expected && before === after && entries.length === after;
    if (settled || Date.now() >= deadline) return entries;
  }
}

/** Runs `work` over `items`, `inFlight` at a time, until the items run out or `halt()` says stop. */
export async function pool<T>(
  items: readonly T[],
  inFlight: number,
  work: (item: T) => Promise<void>,
  halt: () => boolean = () => false,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && !halt()) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
}

/** The platform's own view after the retries: each key's lead and the whole audit trail, checked. */
export async function expectExactlyOnce(
  child: Child,
  token: string,
  idByKey: Map<string, string>,
): Promise<void> {
  const leads = await readAll<Lead>(child, token, '/api/v1/leads');
  const idsByName = new Map<string, string[]>();
  for (const lead of leads) idsByName.set(lead.name, [...(idsByName.get(lead.name) ?? []), lead.id]);
  for (const [key, id] of idByKey)
    expect({ key, ids: idsByName.get(nameOf(key)) }).toEqual({ key, ids: [id] });
  // Nothing but these keys' leads: no half-applied write left a stray record behind.
  expect(leads).toHaveLength(idByKey.size);

  const trail = await settledTrail(child, token, leads.length);
  const leadEntries = trail.filter((entry) => entry.resourceKind === 'lead');
  expect(leadEntries.every((entry) => entry.action === 'lead.created')).toBe(true);
  const entriesByLead = new Map<string, AuditEntry[]>();
  for (const entry of leadEntries) {
    entriesByLead.set(entry.resourceId, [...(entriesByLead.get(entry.resourceId) ?? []), entry]);
  }
  for (const [key, id] of idByKey) {
    const entries = entriesByLead.get(id) ?? [];
    expect({ key, count: entries.length, idempotencyKey: entries[0]?.idempotencyKey }).toEqual({
      key,
      count: 1,
      idempotencyKey: key,
    });
  }
  expect(leadEntries).toHaveLength(idByKey.size);
  expect(new Set(trail.map((entry) => entry.eventId)).size).toBe(trail.length);

  const verify = await call(child.url, token, 'GET', '/api/v1/audit/verify');
  expect(verify.status).toBe(200);
  expect(verify.body).toMatchObject({ valid: true, length: trail.length, headSeq: trail.length });
}
