// One trace per request on the one-process platform (issue 34): a keyed write sent with a W3C
// `traceparent` reaches the audit consumer as one trace, and the consumer's log line carries its
// trace id. The platform runs as a child process (support/platform-child.ts) so its log lines and
// its OTLP exports are read as an operator would: from its stdout, and by a collector on 127.0.0.1.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { call, newTenant } from './support/keyed-writes.ts';
import {
  spansUntil,
  startOtlpCollector,
  type CollectedSpan,
  type OtlpCollector,
} from './support/otlp-collector.ts';
import { killHard, spawnPlatform, type PlatformChild } from './support/platform-child.ts';
import { connectedTrace, SPAN_KIND } from './support/trace-checks.ts';

const ADMIN_SECRET = 'trace-admin-secret';
const dataDir = mkdtempSync(join(tmpdir(), 'fieldops-trace-'));
let collector: OtlpCollector;
let child: PlatformChild;

beforeAll(async () => {
  collector = await startOtlpCollector();
  child = await spawnPlatform({
    dataDir,
    adminSecret: ADMIN_SECRET,
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: '200', LOG_LEVEL: 'debug' },
    // Node loads the whole platform from source first: tens of seconds on a loaded machine.
    readyTimeoutMs: 150_000,
  });
}, 180_000);

afterAll(async () => {
  if (child) await killHard(child);
  await collector?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The platform's JSON log lines so far. */
const logLines = (): Record<string, unknown>[] =>
  child
    .stdout()
    .filter((line) => line.startsWith('{') && line.includes('"level"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

async function auditLineOf(eventTrace: string): Promise<Record<string, unknown>> {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    const line = logLines().find((l) => l['msg'] === 'audit: entry appended' && l['trace_id'] === eventTrace);
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(
    `no audit line with trace ${eventTrace}; audit lines: ${JSON.stringify(
      logLines().filter((l) => l['msg'] === 'audit: entry appended'),
    )}`,
  );
}

describe('a keyed write on the one-process platform', () => {
  it("is one trace from the gateway's request to the audit consumer's span and log line", async () => {
    const token = await newTenant(child, 'Trace Co', ADMIN_SECRET);
    const traceId = randomBytes(16).toString('hex');
    const callerSpan = randomBytes(8).toString('hex');
    const reply = await call(child.url, token, 'POST', '/api/v1/leads', {
      body: { name: 'Traced Lead' },
      headers: { 'idempotency-key': 'trace-1', traceparent: `00-${traceId}-${callerSpan}-01` },
    });
    expect(reply.status).toBe(201);

    const ofTrace = (spans: CollectedSpan[]) => spans.filter((s) => s.traceId === traceId);
    const whole = (all: CollectedSpan[]) => {
      const spans = ofTrace(all);
      return (
        spans.some(
          (s) => s.kind === SPAN_KIND.consumer && s.attributes['messaging.consumer.group.name'] === 'audit',
        ) && connectedTrace(spans, callerSpan).length === 0
      );
    };
    const spans = ofTrace(await spansUntil(collector, whole));
    const kinds = new Set(spans.map((s) => s.kind));
    // The gateway's request, its call to crm on both ends, the relay's publish, the consumers.
    for (const kind of Object.values(SPAN_KIND).slice(1)) expect(kinds).toContain(kind);
    expect(spans.find((s) => s.kind === SPAN_KIND.server && s.name.startsWith('POST'))?.parentSpanId).toBe(
      callerSpan,
    );
    const crmServer = spans.find(
      (s) => s.name === '/fieldops.crm.v1.CrmService/CreateLead' && s.kind === SPAN_KIND.server,
    );
    expect(crmServer).toBeDefined();
    // Store and fast-state calls are client spans of the hop that made them: crm's commit of the
    // lead under its gRPC server span, the gateway's rate bucket under the request.
    const storeCall = spans.find((s) => s.name === 'commit' && s.parentSpanId === crmServer?.spanId);
    expect(storeCall?.kind).toBe(SPAN_KIND.client);
    expect(storeCall?.attributes['db.system.name']).toMatch(/^(mongodb|fieldops\.embedded)$/);
    const fastCalls = spans.filter((s) => s.attributes['db.operation.name'] === 'takeToken');
    expect(fastCalls.map((s) => s.name)).toContain('takeToken rate');
    expect(fastCalls[0]?.attributes['db.system.name']).toMatch(/^(redis|fieldops\.embedded)$/);

    const line = await auditLineOf(traceId);
    const auditSpans = spans.filter((s) => s.attributes['messaging.consumer.group.name'] === 'audit');
    expect(auditSpans.map((s) => s.spanId)).toContain(line['span_id']);
    expect(collector.refused()).toBe(0);
  }, 120_000);

  it("carries a page read, which has no body, into crm under the gateway's span", async () => {
    const token = await newTenant(child, 'Trace Reads', ADMIN_SECRET);
    const traceId = randomBytes(16).toString('hex');
    const callerSpan = randomBytes(8).toString('hex');
    const reply = await call(child.url, token, 'GET', '/api/v1/leads?limit=5', {
      headers: { traceparent: `00-${traceId}-${callerSpan}-01` },
    });
    expect(reply.status).toBe(200);
    const named = (name: string) => (spans: CollectedSpan[]) =>
      spans.some((s) => s.traceId === traceId && s.name === name);
    const listLeads = '/fieldops.crm.v1.CrmService/ListLeads';
    const spans = (await spansUntil(collector, named(listLeads))).filter((s) => s.traceId === traceId);
    const gateway = spans.find((s) => s.kind === SPAN_KIND.server && s.name.startsWith('GET'));
    expect(gateway?.parentSpanId).toBe(callerSpan);
    // The gateway's call to crm is a client span under the request's; crm's server span is under that.
    const client = spans.find((s) => s.name === listLeads && s.kind === SPAN_KIND.client);
    expect(client?.parentSpanId).toBe(gateway?.spanId);
    const server = spans.find((s) => s.name === listLeads && s.kind === SPAN_KIND.server);
    expect(server?.parentSpanId).toBe(client?.spanId);
    expect(connectedTrace(spans, callerSpan)).toEqual([]);
  }, 60_000);

  it('gives a request sent without a traceparent a trace id of its own, in its log line', async () => {
    const before = logLines().length;
    // Whatever it answers (ready or not yet), the request is logged.
    await fetch(`${child.url}/healthz`);
    let line: Record<string, unknown> | undefined;
    for (let attempt = 0; attempt < 100 && !line; attempt += 1) {
      line = logLines()
        .slice(before)
        .find((l) => l['msg'] === 'request' && l['path'] === '/healthz');
      if (!line) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(line?.['trace_id']).toMatch(/^[0-9a-f]{32}$/);
    expect(line?.['span_id']).toMatch(/^[0-9a-f]{16}$/);
  }, 60_000);
});
