import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openEmbeddedStore, PAGE_EXAMINE_LIMIT } from '../src/store/embedded.ts';
import { crc32, frameLine } from '../src/store/framing.ts';
import type { Doc, DocumentStore, WriteOp } from '../src/store/port.ts';
import { describeStoreContract } from './contracts/store.contract.ts';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const EMBEDDED_MODULE = pathToFileURL(
  fileURLToPath(new URL('../src/store/embedded.ts', import.meta.url)),
).href;
const JOURNAL = 'journal.log';
const SNAPSHOT = 'snapshot.jsonl';
const T = 'tenant_t';

const tempDir = (): Promise<string> => fs.mkdtemp(path.join(os.tmpdir(), 'fieldops-store-'));

describeStoreContract('embedded', async () => {
  const dir = await tempDir();
  const opened: DocumentStore[] = [];
  const openOne = async (): Promise<DocumentStore> => {
    const store = await openEmbeddedStore({ dir });
    opened.push(store);
    return store;
  };
  return {
    store: await openOne(),
    reopen: openOne,
    cleanup: async () => {
      for (const store of opened) await store.close();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
});

// A child process that commits documents (each with an outbox event) and prints every id once its
// commit resolved, waiting for the line to be written before the next commit. With a count it
// prints `done` and then idles until killed, so the journal is left exactly as a crash leaves it
// (close() would compact it away).
const CHILD_SCRIPT = `
import { openEmbeddedStore } from ${JSON.stringify(EMBEDDED_MODULE)};
const [dir, count, fsync] = process.argv.slice(2);
const store = await openEmbeddedStore({ dir, fsync });
await store.define({ name: 'docs', unique: [['email']] });
const limit = Number(count);
for (let n = 0; limit === 0 || n < limit; n++) {
  const id = 'doc_' + String(n).padStart(6, '0');
  await store.commit('${T}', [
    { op: 'insert', collection: 'docs', doc: { id, tenantId: '${T}', version: 1, email: id + '@x', pad: 'x'.repeat(100) } },
    { op: 'emit', event: { id: 'ev_' + id, tenantId: '${T}', topic: 'docs', key: id, value: { n } } },
  ]);
  // Waits for the line to be written: every await in this loop resolves at once, so without a
  // turn of the event loop a write that could not complete at once would never be flushed, and
  // the loop would commit on, unseen, until the test gave up.
  await new Promise((resolve) => process.stdout.write('ack ' + id + '\\n', resolve));
}
process.stdout.write('done\\n');
setInterval(() => {}, 1000);
`;

interface ChildRun {
  acked: string[];
}

/** Runs the child until `enough(acked)` holds (or it printed done), then kills it with SIGKILL. */
async function runAndKill(
  dir: string,
  options: { count: number; fsync: string; enough?: (acked: number) => boolean },
): Promise<ChildRun> {
  const script = path.join(dir, '..', `${path.basename(dir)}-child.mjs`);
  await fs.writeFile(script, CHILD_SCRIPT);
  const child = spawn(process.execPath, [script, dir, String(options.count), options.fsync], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const acked: string[] = [];
  let stderr = '';
  let buffered = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines) {
          if (line.startsWith('ack ')) acked.push(line.slice(4));
          if (line === 'done' || options.enough?.(acked.length)) {
            child.kill('SIGKILL');
            resolve();
          }
        }
      });
      child.on('exit', (code, signal) => {
        if (signal !== 'SIGKILL') reject(new Error(`child exited early (${code}): ${stderr}`));
      });
    });
    await new Promise<void>((resolve) =>
      child.exitCode !== null || child.signalCode !== null ? resolve() : child.on('exit', () => resolve()),
    );
  } finally {
    await fs.rm(script, { force: true });
  }
  return { acked };
}

/** Runs fn with console.warn captured, so expected warnings are asserted instead of printed. */
async function withWarnings<R>(fn: () => Promise<R>): Promise<{ result: R; warnings: string[] }> {
  const warnings: string[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => warnings.push(args.map(String).join(' '));
  try {
    return { result: await fn(), warnings };
  } finally {
    console.warn = original;
  }
}

const openDocs = async (
  dir: string,
  options: { compactAfterBytes?: number } = {},
): Promise<DocumentStore> => {
  const store = await openEmbeddedStore({ dir, ...options });
  await store.define({ name: 'docs', unique: [['email']] });
  return store;
};

const allIds = async (store: DocumentStore): Promise<string[]> =>
  (await store.find('docs', T, {}, { sort: { field: 'id', direction: 'asc' } })).map((doc) => doc.id);

async function journalLines(dir: string): Promise<Buffer[]> {
  const bytes = await fs.readFile(path.join(dir, JOURNAL));
  const lines: Buffer[] = [];
  let start = 0;
  for (let end = bytes.indexOf(0x0a); end !== -1; end = bytes.indexOf(0x0a, start)) {
    lines.push(bytes.subarray(start, end + 1));
    start = end + 1;
  }
  return lines;
}

describe('embedded document store', () => {
  let dir: string;
  const stores: DocumentStore[] = [];

  beforeEach(async () => {
    dir = await tempDir();
  });

  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const track = (store: DocumentStore): DocumentStore => {
    stores.push(store);
    return store;
  };

  describe('crash safety', () => {
    it('keeps every acknowledged commit when the process is killed with SIGKILL', async () => {
      const { acked } = await runAndKill(dir, { count: 0, fsync: 'never', enough: (n) => n >= 400 });
      expect(acked.length).toBeGreaterThanOrEqual(400);

      const store = track(await openDocs(dir));
      const present = new Set(await allIds(store));
      expect(acked.filter((id) => !present.has(id))).toEqual([]);
      const events = new Set((await store.pendingOutbox(100_000)).map((record) => record.id));
      expect(acked.filter((id) => !events.has(`ev_${id}`))).toEqual([]);
    });

    it('discards a torn last line with a warning and keeps working', async () => {
      await runAndKill(dir, { count: 20, fsync: 'never' });
      const lines = await journalLines(dir);
      const last = lines[lines.length - 1]!;
      // A crash mid-write: the beginning of a line, without its end or newline.
      await fs.appendFile(path.join(dir, JOURNAL), last.subarray(0, Math.floor(last.length / 2)));

      const { result: store, warnings } = await withWarnings(() => openDocs(dir));
      track(store);
      expect(warnings.join('\n')).toMatch(/torn last line/);
      expect(await allIds(store)).toHaveLength(20);
      expect((await fs.stat(path.join(dir, JOURNAL))).size).toBe(Buffer.concat(lines).length);

      await store.commit(T, [
        { op: 'insert', collection: 'docs', doc: { id: 'after', tenantId: T, version: 1 } },
      ]);
      await store.close();
      const reopened = track(await openDocs(dir));
      expect(await allIds(reopened)).toHaveLength(21);
    });

    it('discards a complete last line whose checksum does not match', async () => {
      await runAndKill(dir, { count: 20, fsync: 'never' });
      const file = path.join(dir, JOURNAL);
      const bytes = await fs.readFile(file);
      bytes[bytes.length - 10] = bytes[bytes.length - 10]! ^ 0x01;
      await fs.writeFile(file, bytes);

      const { result: store, warnings } = await withWarnings(() => openDocs(dir));
      track(store);
      expect(warnings).toHaveLength(1);
      expect(await allIds(store)).toHaveLength(19);
    });

    it('refuses to open when a line in the middle is corrupt, naming the file and line', async () => {
      await runAndKill(dir, { count: 20, fsync: 'never' });
      const file = path.join(dir, JOURNAL);
      const lines = await journalLines(dir);
      const fifth = lines[4]!;
      fifth[fifth.length - 5] = fifth[fifth.length - 5]! ^ 0x01;
      const damaged = Buffer.concat(lines);
      await fs.writeFile(file, damaged);

      await expect(openDocs(dir)).rejects.toThrow(`${file}: line 5 is corrupt`);
      // Refusing must not "repair" anything: the operator gets the file as it was.
      expect(await fs.readFile(file)).toEqual(damaged);
    });

    it('refuses to open a damaged snapshot', async () => {
      const store = await openDocs(dir);
      await store.commit(T, [
        { op: 'insert', collection: 'docs', doc: { id: 'a', tenantId: T, version: 1 } },
      ]);
      await store.close();
      const file = path.join(dir, SNAPSHOT);
      const bytes = await fs.readFile(file);
      bytes[20] = bytes[20]! ^ 0x01;
      await fs.writeFile(file, bytes);
      await expect(openDocs(dir)).rejects.toThrow(file);
    });
  });

  describe('compaction', () => {
    it('snapshots when the journal grows past compactAfterBytes and keeps everything across reopen', async () => {
      const store = track(await openDocs(dir, { compactAfterBytes: 4096 }));
      for (let n = 0; n < 300; n++) {
        const id = `doc_${String(n).padStart(3, '0')}`;
        await store.commit(T, [
          { op: 'insert', collection: 'docs', doc: { id, tenantId: T, version: 1, email: `${id}@x` } },
          { op: 'emit', event: { id: `ev_${id}`, tenantId: T, topic: 'docs', key: id, value: n } },
        ]);
      }
      const updates: WriteOp[] = [];
      for (let n = 0; n < 300; n += 3) {
        const id = `doc_${String(n).padStart(3, '0')}`;
        updates.push({
          op: 'replace',
          collection: 'docs',
          doc: { id, tenantId: T, version: 1, n },
          expectedVersion: 1,
        });
      }
      updates.push({ op: 'delete', collection: 'docs', id: 'doc_001' });
      await store.commit(T, updates);
      const pending = await store.pendingOutbox(1000);
      await store.markPublished(pending.filter((_, index) => index % 2 === 0));

      expect((await fs.stat(path.join(dir, SNAPSHOT))).isFile()).toBe(true);
      expect((await fs.stat(path.join(dir, JOURNAL))).size).toBeLessThan(4096 * 2);
      const docsBefore = await store.find('docs', T, {}, { sort: { field: 'id', direction: 'asc' } });
      const outboxBefore = await store.pendingOutbox(1000);
      expect(docsBefore).toHaveLength(299);
      expect(outboxBefore).toHaveLength(150);

      await store.close();
      const reopened = track(await openDocs(dir, { compactAfterBytes: 4096 }));
      expect(await reopened.find('docs', T, {}, { sort: { field: 'id', direction: 'asc' } })).toEqual(
        docsBefore,
      );
      expect(await reopened.pendingOutbox(1000)).toEqual(outboxBefore);
      const conflict = reopened.commit(T, [
        { op: 'insert', collection: 'docs', doc: { id: 'dup', tenantId: T, version: 1, email: 'doc_002@x' } },
      ]);
      await expect(conflict).rejects.toMatchObject({ reason: 'unique' });
      await reopened.commit(T, [
        { op: 'emit', event: { id: 'ev_new', tenantId: T, topic: 'docs', key: 'k', value: 1 } },
      ]);
      const seqs = (await reopened.pendingOutbox(1000)).map((record) => record.seq);
      expect(seqs[seqs.length - 1]).toBeGreaterThan(Math.max(...outboxBefore.map((record) => record.seq)));
    });

    it('compacts on close, leaving an empty journal', async () => {
      const store = await openDocs(dir);
      await store.commit(T, [
        { op: 'insert', collection: 'docs', doc: { id: 'a', tenantId: T, version: 1 } },
      ]);
      await store.close();
      expect((await fs.stat(path.join(dir, JOURNAL))).size).toBe(0);
      const reopened = track(await openDocs(dir));
      expect(await allIds(reopened)).toEqual(['a']);
    });

    it('skips journal lines already in the snapshot (crash between rename and truncate)', async () => {
      await runAndKill(dir, { count: 20, fsync: 'never' });
      const journalBeforeSnapshot = await fs.readFile(path.join(dir, JOURNAL));
      const store = await openDocs(dir);
      await store.markPublished(await store.pendingOutbox(100));
      await store.close();
      // Put back the lines the snapshot already covers, as if truncation never happened.
      await fs.writeFile(path.join(dir, JOURNAL), journalBeforeSnapshot);

      const reopened = track(await openDocs(dir));
      expect(await allIds(reopened)).toHaveLength(20);
      expect(await reopened.pendingOutbox(100)).toEqual([]);
      const docs = await reopened.find<Doc>('docs', T, {});
      expect(docs.every((doc) => doc.version === 1)).toBe(true);
    });
  });

  describe('data of an older version', () => {
    it('opens a journal of global outbox seqs, and counts on per tenant after them', async () => {
      // What an older version wrote: one counter for every tenant, a published event named by its seq.
      const event = (id: string, tenantId: string, seq: number) => ({
        id,
        tenantId,
        topic: 'docs',
        key: tenantId,
        value: { id },
        seq,
      });
      const lines = [
        { s: 1, t: T, w: [], e: [event('e1', T, 1)] },
        { s: 2, t: 'tenant_u', w: [], e: [event('e2', 'tenant_u', 2)] },
        { s: 3, t: T, w: [], e: [event('e3', T, 3)] },
        { s: 4, p: [1] },
      ];
      await fs.mkdir(dir, { recursive: true });
      await fs.writeFile(path.join(dir, JOURNAL), Buffer.concat(lines.map((line) => frameLine(line))));

      const store = track(await openDocs(dir));
      // Tenants take turns (fair relaying), so only each tenant's own order is fixed.
      expect((await store.pendingOutbox(10)).map((record) => record.id).sort()).toEqual(['e2', 'e3']);
      await store.commit(T, [{ op: 'emit', event: event('e4', T, 0) }]);
      await store.commit('tenant_u', [{ op: 'emit', event: event('e5', 'tenant_u', 0) }]);
      const pending = await store.pendingOutbox(10);
      const of = (tenantId: string) =>
        pending.filter((record) => record.tenantId === tenantId).map((record) => [record.id, record.seq]);
      expect(of(T)).toEqual([
        ['e3', 3],
        ['e4', 4],
      ]);
      expect(of('tenant_u')).toEqual([
        ['e2', 2],
        ['e5', 3],
      ]);
      await store.markPublished(pending);
      expect(await store.pendingOutbox(10)).toEqual([]);
    });
  });

  describe('options and misuse', () => {
    it.each(['always', 'interval', 'never'] as const)('persists with fsync %s', async (fsync) => {
      const store = await openEmbeddedStore({ dir, fsync });
      await store.define({ name: 'docs' });
      await store.commit(T, [
        { op: 'insert', collection: 'docs', doc: { id: 'a', tenantId: T, version: 1 } },
      ]);
      await store.close();
      const reopened = track(await openDocs(dir));
      expect(await allIds(reopened)).toEqual(['a']);
    });

    it('refuses a second store on the same directory in one process', async () => {
      track(await openDocs(dir));
      await expect(openEmbeddedStore({ dir })).rejects.toThrow(/already open/);
    });

    it('refuses to define a unique key that the stored documents already violate', async () => {
      const store = await openEmbeddedStore({ dir });
      await store.define({ name: 'docs' });
      await store.commit(T, [
        { op: 'insert', collection: 'docs', doc: { id: 'a', tenantId: T, version: 1, email: 'same@x' } },
        { op: 'insert', collection: 'docs', doc: { id: 'b', tenantId: T, version: 1, email: 'same@x' } },
      ]);
      await store.close();
      const reopened = track(await openEmbeddedStore({ dir }));
      await expect(reopened.define({ name: 'docs', unique: [['email']] })).rejects.toThrow(/cannot enforce/);
    });

    it('stores documents as plain JSON, the same before and after a restart', async () => {
      const store = await openEmbeddedStore({ dir });
      await store.define({ name: 'docs' });
      const when = new Date('2024-01-02T03:04:05.000Z');
      await store.commit(T, [
        {
          op: 'insert',
          collection: 'docs',
          doc: { id: 'a', tenantId: T, version: 1, when, gone: undefined },
        },
      ]);
      const before = await store.get('docs', T, 'a');
      expect(before).toEqual({ id: 'a', tenantId: T, version: 1, when: when.toISOString() });
      await store.close();
      const reopened = track(await openEmbeddedStore({ dir }));
      await reopened.define({ name: 'docs' });
      expect(await reopened.get('docs', T, 'a')).toEqual(before);
    });

    it('journals a commit as the JSON of its entry: the documents and events as stored', async () => {
      const store = track(await openEmbeddedStore({ dir }));
      await store.define({ name: 'docs' });
      const when = new Date('2024-01-02T03:04:05.000Z');
      const event = { id: 'e1', tenantId: T, topic: 'docs', key: 'a', value: { when, gone: undefined } };
      await store.commit(T, [
        { op: 'insert', collection: 'docs', doc: { id: 'a', tenantId: T, version: 7, when, n: -0 } },
        { op: 'emit', event },
      ]);
      await store.commit(T, [
        { op: 'replace', collection: 'docs', doc: { id: 'a', tenantId: T, version: 0 }, expectedVersion: 1 },
        { op: 'delete', collection: 'docs', id: 'a' },
      ]);
      const lines = (await journalLines(dir)).map((line) => line.subarray(9, line.length - 1).toString());
      const entries = lines.map((line) => JSON.parse(line) as unknown);
      expect(lines).toEqual(entries.map((entry) => JSON.stringify(entry)));
      const [first, second] = entries as { s: number; w: unknown[]; e: { seq: number }[] }[];
      expect(first?.w).toEqual([
        { c: 'docs', d: { id: 'a', tenantId: T, version: 1, when: when.toISOString(), n: 0 } },
      ]);
      expect(first?.e).toEqual([{ ...event, value: { when: when.toISOString() }, seq: first?.e[0]?.seq }]);
      expect(second?.w).toEqual([
        { c: 'docs', d: { id: 'a', tenantId: T, version: 2 } },
        { c: 'docs', x: 'a' },
      ]);
    });
  });

  describe('checksums', () => {
    it('computes the standard CRC-32 over whole buffers and slices', () => {
      expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
      const bytes = Buffer.from('xx123456789yy');
      expect(crc32(bytes, 2, 11)).toBe(0xcbf43926);
      expect(crc32(bytes, 5, 5)).toBe(0);
    });
  });

  describe('copies', () => {
    it('hands out a stored "__proto__" field as data, never as a prototype', async () => {
      const store = track(await openEmbeddedStore({ dir }));
      await store.define({ name: 'docs' });
      const doc = JSON.parse(
        '{"id":"a","tenantId":"tenant_t","version":1,"__proto__":{"polluted":true}}',
      ) as Doc;
      await store.commit(T, [{ op: 'insert', collection: 'docs', doc }]);
      const read = await store.get<Doc>('docs', T, 'a');
      expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
      expect(Object.keys(read ?? {})).toContain('__proto__');
      expect((read as Record<string, unknown>)['polluted']).toBeUndefined();
    });
  });

  describe('bounded page reads', () => {
    it('answers a free-text page after examining at most PAGE_EXAMINE_LIMIT entries, losing nothing', async () => {
      const store = track(await openEmbeddedStore({ dir }));
      await store.define({ name: 'docs', indexes: [['createdAt']] });
      const total = PAGE_EXAMINE_LIMIT + 500;
      const ops: WriteOp[] = [];
      for (let n = 0; n < total; n++) {
        const note = n === 3 || n === total - 2 ? 'the Needle' : 'hay';
        const doc: Doc = {
          id: `d${String(n).padStart(6, '0')}`,
          tenantId: T,
          version: 1,
          createdAt: n,
          note,
        };
        ops.push({ op: 'insert', collection: 'docs', doc });
      }
      await store.commit(T, ops);
      const query = {
        filter: { note: { $contains: 'needle' } },
        sort: { field: 'createdAt', direction: 'desc' },
      } as const;
      const first = await store.page('docs', T, { ...query, limit: 5 });
      // The newest match is found; the oldest lies past the budget, so the page is short but goes on.
      expect(first.items.map((doc) => doc.id)).toEqual([`d${String(total - 2).padStart(6, '0')}`]);
      expect(first.nextCursor).not.toBeNull();
      const second = await store.page('docs', T, { ...query, limit: 5, cursor: first.nextCursor! });
      expect(second.items.map((doc) => doc.id)).toEqual(['d000003']);
      expect(second.nextCursor).toBeNull();
    });
  });
});
