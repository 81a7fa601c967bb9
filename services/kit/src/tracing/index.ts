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
} from './hops.js';
export type { Hop, HopKind, TraceCarrier } from './hops.js';
export { startTracing } from './setup.js';
export type { Tracing } from './setup.js';
export { DEFAULT_RATIO, DEFAULT_SAMPLER, SAMPLERS, tracingSettingsFromEnv } from './settings.js';
export type { SamplerName, TracingSettings } from './settings.js';
