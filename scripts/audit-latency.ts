// `npm run bench:audit-latency`: how long a write takes to show up in the audit trail, on the
// embedded event log and on Kafka, measured in one run (docs/performance.md, "Write to audit entry").
// Each row starts the whole platform in this process (the test harness, on a temp data dir), sends
// --writes keyed POST /leads one after another, and for each polls GET /audit?resourceId=… every
// --poll-ms until the entry is there: the time from sending the write to reading its entry, so it
// includes the write's own round trip, the outbox relay, the event log and the audit consumer.
// The poll interval bounds the resolution. Kafka needs KAFKA_BROKERS (npm run kafka -- start);
// without it the row says so. The exit status is 0 whatever the numbers: it reports, it does not pass.
//
// Options: --writes <n> (200)  --warmup <n> (20)  --poll-ms <ms> (2)
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { startTestPlatform, type Client } from '../test/support/harness.js';

const { values } = parseArgs({
  options: {
    writes: { type: 'string', default: '200' },
    warmup: { type: 'string', default: '20' },
    'poll-ms': { type: 'string', default: '2' },
  },
});
const writes = Number(values.writes);
const warmup = Number(values.warmup);
const pollMs = Number(values['poll-ms']);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function writeToAudit(api: Client, n: number): Promise<number> {
  const started = performance.now();
  const created = await api.post('/leads', { name: `Latency ${n}` }, { 'idempotency-key': randomUUID() });
  if (created.status !== 201) throw new Error(`write ${n} failed: ${JSON.stringify(created.body)}`);
  const id = (created.body.lead as { id: string }).id;
  for (;;) {
    const found = await api.get(`/audit?limit=1&resourceId=${id}`);
    if ((found.body.items as unknown[]).length > 0) return performance.now() - started;
    await sleep(pollMs);
  }
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

async function measure(env: Record<string, string>): Promise<{ p50: number; p99: number; max: number }> {
  const platform = await startTestPlatform(env);
  try {
    const { api } = await platform.tenant('Latency Co');
    for (let n = 0; n < warmup; n += 1) await writeToAudit(api, n);
    const times: number[] = [];
    for (let n = 0; n < writes; n += 1) times.push(await writeToAudit(api, warmup + n));
    times.sort((a, b) => a - b);
    return {
      p50: percentile(times, 50),
      p99: percentile(times, 99),
      max: times[times.length - 1] ?? Number.NaN,
    };
  } finally {
    await platform.stop();
  }
}

const brokers = process.env.KAFKA_BROKERS ?? '';
const rows: [string, Record<string, string> | undefined][] = [
  ['embedded event log', { KAFKA_BROKERS: '' }],
  [
    `kafka (${brokers || 'KAFKA_BROKERS not set'})`,
    brokers ? { KAFKA_BROKERS: brokers, KAFKA_NAMESPACE: `latency-${process.pid}` } : undefined,
  ],
];
console.log(
  `write -> audit entry, ${writes} sequential keyed writes after ${warmup} warm-up, poll every ${pollMs} ms`,
);
console.log('| event log | p50 | p99 | max |');
console.log('| --- | --- | --- | --- |');
for (const [name, env] of rows) {
  if (env === undefined) {
    console.log(`| ${name} | skipped | | |`);
    continue;
  }
  const { p50, p99, max } = await measure(env);
  console.log(`| ${name} | ${p50.toFixed(1)} ms | ${p99.toFixed(1)} ms | ${max.toFixed(1)} ms |`);
}
