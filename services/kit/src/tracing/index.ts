// @fieldops/kit/tracing: OpenTelemetry tracing, started once per process (startTracing), and the
// spans of the platform's own hops (startHop, inHop, throughHop), which carry W3C trace context
// from a request through gRPC, the outbox and the event log to a consumer.
export {
  bindToHop,
  carrierOf,
  contextOfCarrier,
  inHop,
  startHop,
  throughHop,
  traceFieldsOfActive,
} from './hops.ts';
export type { Hop, HopKind, TraceCarrier } from './hops.ts';
export { startTracing } from './setup.ts';
export type { Tracing } from './setup.ts';
export { DEFAULT_RATIO, DEFAULT_SAMPLER, SAMPLERS, tracingSettingsFromEnv } from './settings.ts';
export type { SamplerName, TracingSettings } from './settings.ts';
