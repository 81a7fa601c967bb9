// Exactly-once keyed writes across a real crash (ARCHITECTURE §4, step 4: "a crash between any two
// steps loses nothing and duplicates nothing"). The platform runs as a child process so SIGKILL
// takes everything with it at an arbitrary point: the in-memory key locks, unflushed offsets, the
// outbox relay mid-publish. The client then does what a client must after a crash, re-send every
// key, and the data and the audit trail must hold each write exactly once.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from '@jest/globals';
import type { PlatformReady } from './support/platform-process.js';

const REPO_ROOT = fileURLToPath(new URL('../', import.meta.url));
const PLATFORM_SCRIPT = fileURLToPath(new URL('./support/platform-process.ts', import.meta.url));
const ADMIN_SECRET = 'crash-test-admin-secret';
/** Start-up transpiles the platform with tsx: seconds on a loaded machine, not milliseconds. */
const READY_TIMEOUT_MS = 20_000;
const REQUEST_TIMEOUT_MS = 10_000;

type Body = Record<string, unknown>;

interface Reply {
  status: number;
  body: Body;
}

interface Lead {
  id: string;
  name: string;
}

interface AuditEntry {
  id: string;
  eventId: string;
  action: string;
  resourceKind: string;
  resourceId: string;
  idempotencyKey: string;
}

interface Child {
  url: string;
  process: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr: () => string;
}

// ---------------------------------------------------------------------------------------------
// The platform process

const children = new Set<Child>();
const dataDirs = new Set<string>();

function newDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fieldops-crash-'));
  dataDirs.add(dir);
  return dir;
}

/** Starts the platform on `dataDir` and resolves once it said where it listens. */
async function startChild(dataDir: string): Promise<Child> {
  const proc = spawn(process.execPath, ['--import', 'tsx', PLATFORM_SCRIPT], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      FIELDOPS_DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'silent',
      FIELDOPS_ADMIN_SECRET: ADMIN_SECRET,
      FIELDOPS_RATE_READS_PER_MIN: '1000000',
      FIELDOPS_RATE_WRITES_PER_MIN: '1000000',
      // Blank means "embedded default": a developer's own adapter URLs must not leak in.
      REDIS_URL: '',
      MONGODB_URI: '',
      KAFKA_BROKERS: '',
    },
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let stderr = '';
  proc.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const child: Child = { url: '', process: proc, exited, stderr: () => stderr };
  children.add(child);

  const lines = createInterface({ input: proc.stdout as NodeJS.ReadableStream });
  const ready = new Promise<PlatformReady>((resolve, reject) => {
    lines.once('line', (line) => {
      try {
        resolve(JSON.parse(line) as PlatformReady);
      } catch {
        reject(new Error(`the platform printed ${line} instead of its address`));
      }
    });
    void exited.then(({ code, signal }) =>
      reject(new Error(`the platform exited (${code ?? signal}) before listening:\n${stderr}`)),
    );
    setTimeout(
      () => reject(new Error(`the platform did not listen within ${READY_TIMEOUT_MS} ms:\n${stderr}`)),
      READY_TIMEOUT_MS,
    ).unref();
  });
  child.url = (await ready).url;
  return child;
}

/** SIGKILL: no handler runs, nothing is flushed or closed. */
async function crash(child: Child): Promise<void> {
  child.process.kill('SIGKILL');
  const { signal } = await child.exited;
  expect(signal).toBe('SIGKILL');
  children.delete(child);
}

/** SIGTERM and a clean exit, which is itself checked: a restart after a crash must stop cleanly. */
async function stop(child: Child): Promise<void> {
  child.process.kill('SIGTERM');
  const { code } = await child.exited;
  children.delete(child);
  expect({ code, stderr: child.stderr() }).toMatchObject({ code: 0 });
}

afterEach(async () => {
  // A failed test must not leave a platform running or data behind.
  for (const child of children) {
    child.process.kill('SIGKILL');
    await child.exited;
  }
  children.clear();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  dataDirs.clear();
});

// ---------------------------------------------------------------------------------------------
// HTTP

async function call(
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
async function newTenant(child: Child, name: string): Promise<string> {
  const tenant = await call(child.url, ADMIN_SECRET, 'POST', '/admin/v1/tenants', { body: { name } });
  expect(tenant.status).toBe(201);
  const tenantId = (tenant.body.tenant as { id: string }).id;
  const token = await call(child.url, ADMIN_SECRET, 'POST', `/admin/v1/tenants/${tenantId}/tokens`, {
    body: { role: 'Manager' },
  });
  expect(token.status).toBe(201);
  return (token.body.token as { secret: string }).secret;
}

/** The one name a key's write carries, first time and on every retry. */
const nameOf = (key: string): string => `Crash Lead ${key}`;

const createLead = (child: Child, token: string, key: string): Promise<Reply> =>
  call(child.url, token, 'POST', '/api/v1/leads', {
    body: { name: nameOf(key) },
    headers: { 'idempotency-key': key },
  });

/** Every item of a paged list, following nextCursor to the end. */
async function readAll<T>(child: Child, token: string, path: string): Promise<T[]> {
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

/**
 * The audit trail once it has settled: entries arrive through the outbox relay and the event-log
 * consumer, after the write answered. Waits until `expected` lead entries are there, then reads
 * again a little later, so a late duplicate (a redelivery after the crash) would still be seen.
 */
async function settledTrail(child: Child, token: string, expected: number): Promise<AuditEntry[]> {
  const deadline = Date.now() + 10_000;
  let entries = await readAll<AuditEntry>(child, token, '/api/v1/audit');
  const leadEntries = () => entries.filter((entry) => entry.resourceKind === 'lead').length;
  while (leadEntries() < expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    entries = await readAll<AuditEntry>(child, token, '/api/v1/audit');
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  return readAll<AuditEntry>(child, token, '/api/v1/audit');
}

/** Runs `work` over `items`, `inFlight` at a time, until the items run out or `halt()` says stop. */
async function pool<T>(
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
async function expectExactlyOnce(child: Child, token: string, idByKey: Map<string, string>): Promise<void> {
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

// ---------------------------------------------------------------------------------------------

describe('a platform killed in the middle of keyed writes', () => {
  it('after a restart and a retry of every key, holds one lead per key and one audit entry per lead', async () => {
    const KEYS = 200;
    const IN_FLIGHT = 8;
    const KILL_AFTER_ACKS = 80;
    const dataDir = newDataDir();
    const first = await startChild(dataDir);
    const token = await newTenant(first, 'Crash Co');

    const keys = Array.from({ length: KEYS }, (_, i) => `crash-${String(i).padStart(3, '0')}`);
    // Every fifth key is sent a second time soon after the first, often while the first is still
    // in flight, so duplicates race each other as well as the kill.
    const sends = keys.flatMap((key, i) => (i % 5 === 4 ? [key, keys[i - 2] as string] : [key]));

    const acked = new Map<string, string>();
    const unanswered = new Set<string>();
    const refused: { key: string; reply: Reply }[] = [];
    let killed: Promise<void> | undefined;
    await pool(
      sends,
      IN_FLIGHT,
      async (key) => {
        let reply: Reply;
        try {
          reply = await createLead(first, token, key);
        } catch {
          // The connection died with the process: the write may or may not have been applied.
          unanswered.add(key);
          return;
        }
        if (reply.status !== 200 && reply.status !== 201) {
          refused.push({ key, reply });
          return;
        }
        const id = (reply.body.lead as Lead).id;
        // A duplicate must answer the record of the first send, never a record of its own.
        expect({ key, id }).toEqual({ key, id: acked.get(key) ?? id });
        acked.set(key, id);
        if (acked.size >= KILL_AFTER_ACKS) killed ??= crash(first);
      },
      () => killed !== undefined,
    );
    await killed;

    expect(refused).toEqual([]);
    // The kill landed mid-stream: some writes were acknowledged, others were cut off in flight.
    expect(acked.size).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
    expect(unanswered.size).toBeGreaterThan(0);

    const second = await startChild(dataDir);
    const idByKey = new Map<string, string>();
    const retries: { key: string; reply: Reply }[] = [];
    await pool(keys, IN_FLIGHT, async (key) => {
      const reply = await createLead(second, token, key);
      retries.push({ key, reply });
      if (reply.status === 200 || reply.status === 201) idByKey.set(key, (reply.body.lead as Lead).id);
    });
    expect(retries.filter(({ reply }) => reply.status !== 200 && reply.status !== 201)).toEqual([]);
    // An acknowledged write survives the crash as it was answered, and its retry is a replay.
    for (const [key, id] of acked) {
      const retry = retries.find((r) => r.key === key)?.reply.body;
      expect({ key, id: idByKey.get(key), replayed: retry?.replayed }).toEqual({ key, id, replayed: true });
    }

    await expectExactlyOnce(second, token, idByKey);
    await stop(second);
  }, 60_000);

  it('after a kill during a burst of one key, a single retry finds the one lead that key made', async () => {
    const BURST = 20;
    const key = 'crash-burst-1';
    const dataDir = newDataDir();
    const first = await startChild(dataDir);
    const token = await newTenant(first, 'Burst Co');

    // Kill as soon as one of the duplicates is answered: the rest are queued behind the key's lock
    // or half-way through their replay when the process dies.
    let killed: Promise<void> | undefined;
    const answers: Reply[] = [];
    await Promise.all(
      Array.from({ length: BURST }, async () => {
        try {
          answers.push(await createLead(first, token, key));
          killed ??= crash(first);
        } catch {
          // Cut off by the kill.
        }
      }),
    );
    await killed;
    // Whatever got through before the kill is one write and its replays.
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.length).toBeLessThan(BURST);
    const id = ((answers[0] as Reply).body.lead as Lead).id;
    expect(answers.map((answer) => (answer.body.lead as Lead).id)).toEqual(answers.map(() => id));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 200 && answer.body.replayed === true)).toHaveLength(
      answers.length - 1,
    );

    const second = await startChild(dataDir);
    const retry = await createLead(second, token, key);
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ replayed: true, lead: { id, name: nameOf(key) } });

    await expectExactlyOnce(second, token, new Map([[key, id]]));
    await stop(second);
  }, 60_000);
});
