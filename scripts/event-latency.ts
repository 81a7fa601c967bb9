// `npm run bench:event-latency`: how long a write takes to reach the audit trail and a webhook
// receiver, on the embedded event log and on Kafka, in a fresh tenant and again after the tenant has
// piled up --accumulate events (audit entries, outbox records, event-log records, deliveries): the
// issue-13 rule that neither latency grows with what is already stored (docs/performance.md,
// "Write to audit entry and webhook delivery").
// Each row starts the whole platform in this process (the test harness, on a temp data dir) with a
// node:http receiver subscribed to lead.created, sends --writes keyed POST /leads one after another,
// and for each waits until GET /audit?resourceId=… shows the entry (polled every --poll-ms) and the
// receiver has the delivery: both times run from sending the write, so they include its own round
// trip, the outbox relay, the event log and the consumer. Kafka needs KAFKA_BROKERS
// (npm run kafka -- start); without it the row says so. Exit status 0 whatever the numbers.
//
// Options: --writes <n> (200)  --warmup <n> (200)  --accumulate <n> (20000)  --poll-ms <ms> (2)
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { startTestPlatform, type Client } from '../test/support/harness.ts';

const { values } = parseArgs({
  options: {
    writes: { type: 'string', default: '200' },
    warmup: { type: 'string', default: '200' },
    accumulate: { type: 'string', default: '20000' },
    'poll-ms': { type: 'string', default: '2' },
  },
});
const writes = Number(values.writes);
const warmup = Number(values.warmup);
const accumulate = Number(values.accumulate);
const pollMs = Number(values['poll-ms']);
/** Writes in flight while the tenant is filled: enough to keep the platform busy, not to queue. */
const FILL_CONCURRENCY = 16;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A receiver that only remembers when each lead's delivery arrived, by lead id. Not the tests'
 * scriptable receiver (test/support/webhook-receiver.ts): that one keeps every request and counts
 * a path's earlier requests on each arrival, work that would grow with the 20 000 deliveries in
 * this same process and be charged to the latency being measured.
 */
interface Receiver {
  url: string;
  arrivals: Map<string, number>;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const arrivals = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.now();
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        data: { resource: { id: string } };
      };
      arrivals.set(event.data.resource.id, at);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    arrivals,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function createLead(api: Client, name: string): Promise<string> {
  const created = await api.post('/leads', { name }, { 'idempotency-key': randomUUID() });
  if (created.status !== 201) throw new Error(`write failed: ${JSON.stringify(created.body)}`);
  return (created.body.lead as { id: string }).id;
}

async function untilAudited(api: Client, id: string): Promise<number> {
  for (;;) {
    const found = await api.get(`/audit?limit=1&resourceId=${id}`);
    if ((found.body.items as unknown[]).length > 0) return performance.now();
    await sleep(pollMs);
  }
}

async function untilDelivered(receiver: Receiver, id: string): Promise<number> {
  for (;;) {
    const at = receiver.arrivals.get(id);
    if (at !== undefined) return at;
    await sleep(pollMs);
  }
}

interface Sample {
  audit: number;
  webhook: number;
}

async function oneWrite(api: Client, receiver: Receiver, name: string): Promise<Sample> {
  const started = performance.now();
  const id = await createLead(api, name);
  const [audited, delivered] = await Promise.all([untilAudited(api, id), untilDelivered(receiver, id)]);
  return { audit: audited - started, webhook: delivered - started };
}

/** Fills the tenant with `count` more writes, then waits until every one is audited and delivered. */
async function fill(api: Client, receiver: Receiver, count: number): Promise<void> {
  const expected = receiver.arrivals.size + count;
  let next = 0;
  let last = '';
  const worker = async () => {
    while (next < count) {
      next += 1;
      last = await createLead(api, `Fill ${next}`);
    }
  };
  await Promise.all(Array.from({ length: FILL_CONCURRENCY }, worker));
  if (last !== '') await Promise.all([untilAudited(api, last), untilDelivered(receiver, last)]);
  while (receiver.arrivals.size < expected) await sleep(50);
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

interface Figures {
  p50: number;
  p99: number;
}

function figures(times: number[]): Figures {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

async function series(
  api: Client,
  receiver: Receiver,
  label: string,
): Promise<Record<keyof Sample, Figures>> {
  const samples: Sample[] = [];
  for (let n = 0; n < writes; n += 1) samples.push(await oneWrite(api, receiver, `${label} ${n}`));
  return {
    audit: figures(samples.map((s) => s.audit)),
    webhook: figures(samples.map((s) => s.webhook)),
  };
}

type Row = { stored: number; figures: Record<keyof Sample, Figures> };

async function measure(env: Record<string, string>): Promise<Row[]> {
  const platform = await startTestPlatform({
    FIELDOPS_WEBHOOK_ALLOW_PRIVATE: '1',
    FIELDOPS_WEBHOOK_POLL_MS: '50',
    ...env,
  });
  const receiver = await startReceiver();
  try {
    const { api } = await platform.tenant('Latency Co');
    const hook = await api.post('/webhooks', { url: receiver.url, eventTypes: ['lead.created'] });
    if (hook.status !== 201) throw new Error(`subscribe failed: ${JSON.stringify(hook.body)}`);
    for (let n = 0; n < warmup; n += 1) await oneWrite(api, receiver, `Warm-up ${n}`);
    const fresh = { stored: receiver.arrivals.size, figures: await series(api, receiver, 'Fresh') };
    await fill(api, receiver, accumulate);
    const grown = { stored: receiver.arrivals.size, figures: await series(api, receiver, 'Grown') };
    return [fresh, grown];
  } finally {
    await receiver.close();
    await platform.stop();
  }
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const ratio = (grown: number, fresh: number) => (grown / fresh).toFixed(2);

const brokers = process.env.KAFKA_BROKERS ?? '';
const logs: [string, Record<string, string> | undefined][] = [
  ['embedded event log', { KAFKA_BROKERS: '' }],
  [
    `kafka (${brokers || 'KAFKA_BROKERS not set'})`,
    brokers ? { KAFKA_BROKERS: brokers, KAFKA_NAMESPACE: `latency-${process.pid}` } : undefined,
  ],
];
console.log(
  `write -> audit entry and -> webhook delivery, ${writes} sequential keyed writes after ${warmup} warm-up, ` +
    `then again after ${accumulate} more writes in the same tenant; poll every ${pollMs} ms`,
);
console.log('| event log | events stored | audit p50 | audit p99 | webhook p50 | webhook p99 |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const [name, env] of logs) {
  if (env === undefined) {
    console.log(`| ${name} | skipped | | | | |`);
    continue;
  }
  const [fresh, grown] = await measure(env);
  for (const row of [fresh!, grown!]) {
    const { audit, webhook } = row.figures;
    console.log(
      `| ${name} | ${row.stored} | ${ms(audit.p50)} | ${ms(audit.p99)} | ${ms(webhook.p50)} | ${ms(webhook.p99)} |`,
    );
  }
  const a = grown!.figures;
  const f = fresh!.figures;
  console.log(
    `| ${name}: grown ÷ fresh | | ${ratio(a.audit.p50, f.audit.p50)} | ${ratio(a.audit.p99, f.audit.p99)} | ` +
      `${ratio(a.webhook.p50, f.webhook.p50)} | ${ratio(a.webhook.p99, f.webhook.p99)} |`,
  );
}
