// Tracing in the kit (issue 34): the OTEL_* settings and their refusals, and one trace carried by
// the real embedded store, relay and event log: an event emitted inside a request's span is
// published in a span of that trace and handled in a consumer span of it, whose log fields name it.
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ConfigError } from '../src/config.ts';
import { systemContext } from '../src/context.ts';
import { openEmbeddedEventLog } from '../src/events/embedded.ts';
import { domainEvent, traceOfEvent } from '../src/events/envelope.ts';
import type { EventRecord } from '../src/events/port.ts';
import { traceConsumers } from '../src/events/traced-consumers.ts';
import { startOutboxRelay } from '../src/outbox/relay.ts';
import { openEmbeddedStore } from '../src/store/embedded.ts';
import { inHop, startHop, traceFieldsOfActive } from '../src/tracing/hops.ts';
import { tracingSettingsFromEnv } from '../src/tracing/settings.ts';
import { startTracing } from '../src/tracing/setup.ts';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;

describe('tracing settings', () => {
  it('export nothing unless an endpoint is set, and sample parent-based at 0.1 by default', () => {
    expect(tracingSettingsFromEnv({})).toEqual({
      enabled: true,
      exportUrl: undefined,
      sampler: 'parentbased_traceidratio',
      ratio: 0.1,
      exportDelayMs: 5000,
    });
    expect(tracingSettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).exportUrl).toBe(
      'http://collector:4318/v1/traces',
    );
    const specific = {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/custom',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'x',
    };
    expect(tracingSettingsFromEnv(specific).exportUrl).toBe('http://c:4318/custom');
    const none = { OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
    expect(tracingSettingsFromEnv(none).exportUrl).toBeUndefined();
    expect(tracingSettingsFromEnv({ OTEL_SDK_DISABLED: 'true' }).enabled).toBe(false);
  });

  it('refuse a bad value naming its variable', () => {
    const problems = (env: NodeJS.ProcessEnv): string[] => {
      try {
        tracingSettingsFromEnv(env);
        return [];
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as ConfigError).problems;
      }
    };
    expect(problems({ OTEL_TRACES_SAMPLER: 'sometimes' })[0]).toMatch(/^OTEL_TRACES_SAMPLER must be one of/);
    expect(problems({ OTEL_TRACES_SAMPLER_ARG: '1.5' })[0]).toMatch(
      /^OTEL_TRACES_SAMPLER_ARG must be a ratio/,
    );
    expect(problems({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })[0]).toMatch(/must be http\/json/);
    expect(problems({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })[0]).toMatch(
      /^OTEL_EXPORTER_OTLP_ENDPOINT must be an http:\/\/ or https:\/\/ URL/,
    );
    expect(problems({ OTEL_BSP_SCHEDULE_DELAY: 'soon' })[0]).toMatch(/^OTEL_BSP_SCHEDULE_DELAY must be/);
  });
});

describe('one trace through the outbox and the event log (nothing exported)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fieldops-tracing-'));
  beforeAll(() => startTracing('kit-test', {}));
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('outside any span: no log fields, and an event carries no trace', () => {
    expect(traceFieldsOfActive()).toEqual({});
    const event = domainEvent(
      'crm',
      systemContext({ id: 't1', currency: 'EUR', defaultVertical: '' }, 'test'),
      'lead.created',
      {
        kind: 'lead',
        id: 'l1',
      },
      {},
    );
    expect(traceOfEvent(event.value)).toEqual({});
  });

  it("joins the consumer's span to the trace of the write that emitted the event", async () => {
    const store = await openEmbeddedStore({ dir: join(dir, 'store') });
    const log = traceConsumers(await openEmbeddedEventLog({ dir: join(dir, 'events') }));
    const handled: { record: EventRecord; fields: Record<string, string> }[] = [];
    const subscription = await log.subscribe({
      group: 'trace-test',
      topics: ['fieldops.crm.events'],
      fromBeginning: true,
      handle: async (record) => {
        handled.push({ record, fields: traceFieldsOfActive() });
      },
    });
    const relay = startOutboxRelay({ store, log, idleMs: 10 });
    try {
      const request = startHop('POST /leads', 'server');
      const fields = inHop(request, traceFieldsOfActive);
      expect(fields['trace_id']).toMatch(/^[0-9a-f]{32}$/);
      const ctx = systemContext({ id: 't1', currency: 'EUR', defaultVertical: '' }, 'createLead');
      const event = inHop(request, () =>
        domainEvent('crm', ctx, 'lead.created', { kind: 'lead', id: 'l1' }, {}),
      );
      request.end();
      const stored = traceOfEvent(event.value).traceparent ?? '';
      expect(TRACEPARENT.exec(stored)?.slice(1)).toEqual([fields['trace_id'], fields['span_id']]);

      await store.commit('t1', [{ op: 'emit', event }]);
      await relay.drain();
      for (let n = 0; n < 500 && handled.length === 0; n += 1) await new Promise((r) => setTimeout(r, 10));
      expect(handled).toHaveLength(1);
      const [{ record, fields: consumerFields }] = handled as [(typeof handled)[number]];
      // The header is the relay's publish span: same trace, a span of its own.
      const header = TRACEPARENT.exec(record.headers['traceparent'] ?? '');
      expect(header?.[1]).toBe(fields['trace_id']);
      expect(header?.[2]).not.toBe(fields['span_id']);
      expect(consumerFields['trace_id']).toBe(fields['trace_id']);
      expect([fields['span_id'], header?.[2]]).not.toContain(consumerFields['span_id']);
    } finally {
      await relay.stop();
      await subscription.stop();
      await log.close();
      await store.close();
    }
  });
});
