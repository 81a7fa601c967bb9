// `npm run bench:outbox`: concurrent emitting commits on the embedded store, with the outbox
// counted per tenant and one relay under a lease (issue 24), against the store before it (one global
// counter, a relay without a lease), measured side by side in one process.
// The old store is the kit's source at --old-rev, extracted with `git archive` under .data/ (so it
// resolves the same node_modules) and imported as it was. Each segment opens a fresh store in a
// temporary folder with its relay publishing to a fresh embedded event log, runs --commits commits
// from --in-flight concurrent writers spread over --tenants tenants (each commit inserts a lead-sized
// document and emits its event), and waits until the relay has published everything. Segments of
// the two alternate (old first in odd rounds), --rounds of each; the medians are reported, and the
// ratio new/old. The same is then run without a relay, which isolates the counter from the relay's
// passes competing for the event loop. Exit status 0 whatever the numbers.
//
// Options: --commits <n> (10000)  --in-flight <n> (64)  --tenants <n> (200)  --rounds <n> (3)
//          --old-rev <git revision> (50108ea, the last commit with the global counter)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { openEmbeddedEventLog } from '@fieldops/kit/events';
import type { DocumentStore } from '@fieldops/kit/store';

const { values } = parseArgs({
  options: {
    commits: { type: 'string', default: '10000' },
    'in-flight': { type: 'string', default: '64' },
    tenants: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '3' },
    'old-rev': { type: 'string', default: '50108ea' },
  },
});
const commits = Number(values.commits);
const inFlight = Number(values['in-flight']);
const tenants = Number(values.tenants);
const rounds = Number(values.rounds);
const oldRev = values['old-rev'];
const ROOT = resolve(import.meta.dirname, '../..');

interface Kit {
  openEmbeddedStore(options: { dir: string }): Promise<DocumentStore>;
  startOutboxRelay(options: { store: DocumentStore; log: unknown }): {
    drain(): Promise<void>;
    stop(): Promise<void>;
  };
}

interface Segment {
  commitsPerSecond: number;
  p99Ms: number;
  /** From the first commit until the relay had published the last event. */
  publishedPerSecond: number;
  /** Process CPU (user + system) per commit over the same span: steadier than wall time on a loaded machine. */
  cpuMicros: number;
}

async function loadKit(srcDir: string): Promise<Kit> {
  const store = (await import(pathToFileURL(join(srcDir, 'store/embedded.ts')).href)) as Kit;
  const relay = (await import(pathToFileURL(join(srcDir, 'outbox/relay.ts')).href)) as Kit;
  return { openEmbeddedStore: store.openEmbeddedStore, startOutboxRelay: relay.startOutboxRelay };
}

/** The kit's source at `rev`, extracted once under .data/ (gitignored). */
function extractOld(rev: string): string {
  const dir = join(ROOT, '.data', 'bench-outbox', rev);
  const src = join(dir, 'services/kit/src');
  if (!existsSync(join(src, 'store/embedded.ts'))) {
    mkdirSync(dir, { recursive: true });
    const archive = execFileSync('git', ['archive', rev, 'services/kit/src'], { cwd: ROOT });
    execFileSync('tar', ['-x', '-C', dir], { input: archive });
  }
  return src;
}

function lead(tenantId: string, n: number): Record<string, unknown> {
  return {
    id: `lead_${String(n).padStart(8, '0')}`,
    tenantId,
    version: 1,
    name: `Site survey request ${n}`,
    email: `contact${n}@example.com`,
    phone: '+33 6 12 34 56 78',
    message:
      'Stockpile volume survey for the north yard, drone flight preferred before the end of the month.',
    source: 'website',
    status: 'new',
    createdAt: new Date(Date.UTC(2026, 0, 1) + n).toISOString(),
  };
}

async function segment(kit: Kit, withRelay: boolean): Promise<Segment> {
  const dir = mkdtempSync(join(tmpdir(), 'fieldops-bench-outbox-'));
  const store = await kit.openEmbeddedStore({ dir: join(dir, 'store') });
  await store.define({ name: 'leads', unique: [['email']], indexes: [['createdAt']] });
  const log = await openEmbeddedEventLog({ dir: join(dir, 'events') });
  const relay = withRelay ? kit.startOutboxRelay({ store, log }) : null;
  const latencies: number[] = [];
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const writer = async (): Promise<void> => {
    for (let n = next++; n < commits; n = next++) {
      const tenantId = `ten_${n % tenants}`;
      const doc = lead(tenantId, n) as never;
      const event = { id: `evt_${n}`, tenantId, topic: 'bench.events', key: tenantId, value: { n } };
      const at = performance.now();
      await store.commit(tenantId, [
        { op: 'insert', collection: 'leads', doc },
        { op: 'emit', event },
      ]);
      latencies.push(performance.now() - at);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, writer));
  const committed = performance.now();
  await relay?.drain();
  const published = performance.now();
  const used = process.cpuUsage(cpu);
  await relay?.stop();
  await log.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  latencies.sort((a, b) => a - b);
  return {
    commitsPerSecond: commits / ((committed - started) / 1000),
    p99Ms: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
    publishedPerSecond: commits / ((published - started) / 1000),
    cpuMicros: (used.user + used.system) / commits,
  };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

type Row = { commits: number; p99: number; published: number; cpu: number };

async function compare(
  kits: Record<'old' | 'new', Kit>,
  withRelay: boolean,
): Promise<Record<'old' | 'new', Row>> {
  const results: Record<'old' | 'new', Segment[]> = { old: [], new: [] };
  await segment(kits.old, withRelay);
  await segment(kits.new, withRelay);
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (['old', 'new'] as const) : (['new', 'old'] as const);
    for (const which of order) results[which].push(await segment(kits[which], withRelay));
  }
  const row = (which: 'old' | 'new'): Row => ({
    commits: median(results[which].map((s) => s.commitsPerSecond)),
    p99: median(results[which].map((s) => s.p99Ms)),
    published: median(results[which].map((s) => s.publishedPerSecond)),
    cpu: median(results[which].map((s) => s.cpuMicros)),
  });
  return { old: row('old'), new: row('new') };
}

async function main(): Promise<void> {
  const kits = {
    old: await loadKit(extractOld(oldRev)),
    new: await loadKit(join(ROOT, 'services/kit/src')),
  };
  const relayed = await compare(kits, true);
  const bare = await compare(kits, false);
  console.log(
    `${commits} commits, ${inFlight} in flight, ${tenants} tenants, ${rounds} rounds each (median), old = ${oldRev}`,
  );
  console.log(
    '| outbox                                | commits/s | commit p99 ms | published/s | CPU us/commit |',
  );
  console.log(
    '| ------------------------------------- | --------: | ------------: | ----------: | ------------: |',
  );
  const line = (name: string, r: Row, published: boolean) =>
    `| ${name.padEnd(37)} | ${r.commits.toFixed(0).padStart(9)} | ${r.p99.toFixed(2).padStart(13)} | ` +
    `${(published ? r.published.toFixed(0) : '').padStart(11)} | ${r.cpu.toFixed(0).padStart(13)} |`;
  console.log(line('global counter, relay without lease', relayed.old, true));
  console.log(line('per tenant, relay under lease', relayed.new, true));
  console.log(line('global counter, no relay', bare.old, false));
  console.log(line('per tenant, no relay', bare.new, false));
  const ratio = (a: number, b: number) => (a / b).toFixed(2);
  console.log(
    `new / old: with the relay commits ${ratio(relayed.new.commits, relayed.old.commits)}, published ` +
      `${ratio(relayed.new.published, relayed.old.published)}, CPU per commit ${ratio(relayed.new.cpu, relayed.old.cpu)}; ` +
      `without it commits ${ratio(bare.new.commits, bare.old.commits)}, CPU per commit ${ratio(bare.new.cpu, bare.old.cpu)}`,
  );
}

await main();
