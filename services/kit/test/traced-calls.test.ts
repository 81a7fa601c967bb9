// Store and fast-state calls as spans (issue 34): the adapters openServiceStore and openFastState
// return make each call inside a recorded span a client span of it, on the embedded store, the
// in-process fast state and, with REDIS_URL, a real Redis. Outside a recorded span nothing is made.
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { context, propagation, trace, type Span } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openFastState, openServiceStore } from '../src/adapters.ts';
import { loadConfig, type Config } from '../src/config.ts';
import type { FastState } from '../src/fast/port.ts';
import { StoreConflict, type DocumentStore } from '../src/store/port.ts';

const exporter = new InMemorySpanExporter();
const recording = new TracerProvider({
  sampler: new AlwaysOnSampler(),
  spanProcessors: [new SimpleSpanProcessor({ exporter })],
});
const silent = new TracerProvider({ sampler: new AlwaysOffSampler() });

/** Runs `work` inside a fresh span of `provider` and returns the span with what work returned. */
async function insideSpan<T>(
  provider: TracerProvider,
  work: () => Promise<T>,
): Promise<{ span: Span; out: T }> {
  const span = provider.getTracer('test').startSpan('request');
  try {
    const out = await context.with(trace.setSpan(context.active(), span), work);
    return { span, out };
  } finally {
    span.end();
  }
}

/** The finished spans whose parent is `span` (the processor exports each span as it ends, asynchronously). */
async function childrenOf(span: Span): Promise<ReadableSpan[]> {
  await recording.forceFlush();
  return exporter.getFinishedSpans().filter((s) => s.parentSpanContext?.spanId === span.spanContext().spanId);
}

const redisUrl = process.env.REDIS_URL ?? '';
const dataDir = mkdtempSync(join(tmpdir(), 'fieldops-traced-calls-'));

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(recording);
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe('document store calls', () => {
  let store: DocumentStore;
  beforeAll(async () => {
    store = await openServiceStore(loadConfig({ FIELDOPS_DATA_DIR: dataDir }), 'crm');
    await store.define({ name: 'leads', unique: [['email']] });
  });
  afterAll(() => store.close());

  it('are client spans of the span that made them, named by operation and collection', async () => {
    const lead = { id: 'l1', tenantId: 't1', version: 1, email: 'a@example.com' };
    const { span, out } = await insideSpan(recording, async () => {
      await store.commit('t1', [{ op: 'insert', collection: 'leads', doc: lead }]);
      return store.page('leads', 't1', { sort: { field: 'id', direction: 'asc' }, limit: 10 });
    });
    expect(out.items.map((d) => d.id)).toEqual(['l1']);
    const children = await childrenOf(span);
    expect(children.map((s) => s.name)).toEqual(['commit', 'page leads']);
    expect(children.every((s) => s.spanContext().traceId === span.spanContext().traceId)).toBe(true);
    expect(children[1]?.attributes).toEqual({
      'db.system.name': 'fieldops.embedded',
      'db.operation.name': 'page',
      'db.collection.name': 'leads',
    });
  });

  it('mark a failed call as an error and hand its error on unchanged', async () => {
    const twin = { id: 'l2', tenantId: 't1', version: 1, email: 'a@example.com' };
    const failure = insideSpan(recording, () =>
      store.commit('t1', [{ op: 'insert', collection: 'leads', doc: twin }]),
    );
    await expect(failure).rejects.toBeInstanceOf(StoreConflict);
    await recording.forceFlush();
    const commit = exporter.getFinishedSpans().findLast((s) => s.name === 'commit');
    expect(commit?.status).toMatchObject({ code: 2 });
    expect(commit?.status.message).toMatch(/unique/i);
  });

  it('make no span outside a recorded one', async () => {
    exporter.reset();
    expect(await store.get('leads', 't1', 'l1')).toMatchObject({ id: 'l1' });
    const { span } = await insideSpan(silent, () => store.get('leads', 't1', 'l1'));
    expect(span.isRecording()).toBe(false);
    await recording.forceFlush();
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});

const adapters: [string, Config][] = [['in-process', loadConfig({ FIELDOPS_DATA_DIR: dataDir })]];
if (redisUrl) adapters.push(['redis', loadConfig({ FIELDOPS_DATA_DIR: dataDir, REDIS_URL: redisUrl })]);

describe.each(adapters)('fast-state calls (%s)', (name, config) => {
  let fast: FastState;
  beforeAll(async () => {
    fast = await openFastState(config);
  });
  afterAll(() => fast.close());

  it('are client spans named by the key family, never by the key', async () => {
    const key = `rate:test:tok_secret_${Date.now()}`;
    const { span, out } = await insideSpan(recording, () => fast.takeToken(key, 5, 1));
    expect(out.allowed).toBe(true);
    const [call] = await childrenOf(span);
    expect(call?.name).toBe('takeToken rate');
    expect(call?.attributes).toEqual({
      'db.system.name': name === 'redis' ? 'redis' : 'fieldops.embedded',
      'db.operation.name': 'takeToken',
      'db.collection.name': 'rate',
    });
    expect(JSON.stringify(call?.attributes)).not.toContain('tok_secret');
    await fast.delete(key);
  });
});
