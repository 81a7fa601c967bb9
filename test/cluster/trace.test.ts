// One trace per request across the deployed topology (issue 34): a keyed write sent to the
// gateway with a W3C `traceparent` is followed through crm's gRPC server, its outbox relay's
// publish and the event log to the consumers of the other processes. Every process of
// `npm run cluster` (TypeScript sources under node --permission) exports its spans over OTLP/HTTP to
// a collector this test runs on 127.0.0.1; one trace id, spans from at least four processes, and
// audit's consumer among them.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { clusterOfFile } from '../support/cluster.ts';
import { call } from '../support/keyed-writes.ts';
import { connectedTrace, SPAN_KIND } from '../support/trace-checks.ts';
import {
  spansUntil,
  startOtlpCollector,
  type CollectedSpan,
  type OtlpCollector,
} from '../support/otlp-collector.ts';

// Filled in before the cluster starts (this beforeAll is registered before clusterOfFile's).
const env: Record<string, string> = {};
let collector: OtlpCollector | undefined;
beforeAll(async () => {
  collector = await startOtlpCollector();
  // The default sampler (parent-based) records this trace because the request's parent is sampled.
  Object.assign(env, { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: '200' });
});
afterAll(() => collector?.close());

const cluster = clusterOfFile('Trace Co', { env });

describe('a keyed write on the deployed topology', () => {
  it('is one trace from the gateway to the audit consumer, with spans from at least four processes', async () => {
    const traceId = randomBytes(16).toString('hex');
    const callerSpan = randomBytes(8).toString('hex');
    const reply = await call(cluster.url, cluster.token, 'POST', '/api/v1/leads', {
      body: { name: 'Traced Lead' },
      headers: { 'idempotency-key': 'trace-cluster-1', traceparent: `00-${traceId}-${callerSpan}-01` },
    });
    expect(reply.status).toBe(201);

    // Processes export in batches of their own: wait until the trace is whole, then look at it.
    const ofTrace = (spans: CollectedSpan[]) => spans.filter((s) => s.traceId === traceId);
    const whole = (all: CollectedSpan[]) => {
      const spans = ofTrace(all);
      return (
        spans.some((s) => s.service === 'audit' && s.kind === SPAN_KIND.consumer) &&
        spans.some((s) => s.service === 'crm' && s.kind === SPAN_KIND.producer) &&
        new Set(spans.map((s) => s.service)).size >= 4 &&
        connectedTrace(spans, callerSpan).length === 0
      );
    };
    const spans = ofTrace(await spansUntil(collector!, whole, 120_000));

    const services = new Set(spans.map((s) => s.service));
    expect(services.size).toBeGreaterThanOrEqual(4);
    for (const kind of ['gateway', 'crm', 'audit']) expect(services).toContain(kind);
    const gatewaySpan = spans.find((s) => s.service === 'gateway' && s.kind === SPAN_KIND.server);
    expect(gatewaySpan?.parentSpanId).toBe(callerSpan);
    expect(spans.some((s) => s.service === 'crm' && s.kind === SPAN_KIND.server)).toBe(true);
    expect(spans.some((s) => s.service === 'crm' && s.kind === SPAN_KIND.producer)).toBe(true);
    // The stores' calls as client spans: the gateway's rate bucket on the topology's Redis, crm's
    // commit on its store.
    const bucket = spans.find((s) => s.service === 'gateway' && s.name === 'takeToken rate');
    expect(bucket?.attributes['db.system.name']).toBe('redis');
    expect(spans.some((s) => s.service === 'crm' && s.name === 'commit' && s.kind === SPAN_KIND.client)).toBe(
      true,
    );
    // Every span hangs from the caller's span through spans of the same trace: nothing is cut off.
    expect(connectedTrace(spans, callerSpan)).toEqual([]);
  }, 180_000);
});
