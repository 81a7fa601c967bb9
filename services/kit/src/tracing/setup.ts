// The process's OpenTelemetry tracing, started once by its entry point (startServiceProcess for a
// deployed kind, startPlatform for `npm start`) before it serves anything. Spans are made by hand
// at the platform's own hops (hops.ts), not by the auto-instrumentations: those hook CommonJS
// `require`, while these processes are ESM bundles under node --permission (docs/decisions.md,
// "Tracing: spans at our own hops").
//
// Context always travels: every request gets a trace id and span ids, which go into its log lines,
// its gRPC metadata, its events and the Kafka headers, whether or not the trace is recorded. Only
// with an OTLP endpoint configured are spans recorded, and then only the sampled share of them.
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
} from '@opentelemetry/sdk-trace';
import { tracingSettingsFromEnv, type SamplerName, type TracingSettings } from './settings.ts';

export interface Tracing {
  readonly settings: TracingSettings;
  /** Whether spans leave the process (an OTLP endpoint is configured). */
  readonly exporting: boolean;
  /** Sends every span ended so far; for a stop, so the last requests' spans are not lost. */
  flush(): Promise<void>;
}

let running: Promise<Tracing> | undefined;

function samplerOf(name: SamplerName, ratio: number): Sampler {
  const root = (kind: string): Sampler => {
    if (kind === 'always_on') return new AlwaysOnSampler();
    if (kind === 'always_off') return new AlwaysOffSampler();
    return new TraceIdRatioBasedSampler(ratio);
  };
  return name.startsWith('parentbased_')
    ? new ParentBasedSampler({ root: root(name.slice('parentbased_'.length)) })
    : root(name);
}

async function providerOf(serviceName: string, settings: TracingSettings): Promise<TracerProvider> {
  const resource = resourceFromAttributes({ 'service.name': serviceName });
  if (settings.exportUrl === undefined) {
    // Nothing is recorded: spans are only their ids, which still travel and still reach the logs.
    return new TracerProvider({ resource, sampler: new AlwaysOffSampler() });
  }
  // Imported only when spans leave the process: the exporter's module graph (its OTLP encoding and
  // transports) is a tenth of a second of every process's start, and off by default.
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
  const exporter = new OTLPTraceExporter({ url: settings.exportUrl });
  return new TracerProvider({
    resource,
    sampler: samplerOf(settings.sampler, settings.ratio),
    spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: settings.exportDelayMs })],
  });
}

async function begin(serviceName: string, settings: TracingSettings): Promise<Tracing> {
  if (!settings.enabled) return { settings, exporting: false, flush: () => Promise.resolve() };
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const provider = await providerOf(serviceName, settings);
  trace.setGlobalTracerProvider(provider);
  return {
    settings,
    exporting: settings.exportUrl !== undefined,
    flush: () => provider.forceFlush(),
  };
}

/**
 * Starts tracing for this process as `serviceName` (its kind; `fieldops` for the one-process
 * platform), from the standard OTEL_* variables. Once per process: a second call (a test that
 * starts a platform again) gets the tracing already running. Throws ConfigError for a bad
 * variable, and then starts nothing.
 */
export function startTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env): Promise<Tracing> {
  // The settings are read before the assignment, so a refused variable leaves nothing started.
  running ??= begin(serviceName, tracingSettingsFromEnv(env));
  return running;
}
