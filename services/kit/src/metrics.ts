// Prometheus metrics. One registry per process: services that run in-process together share it,
// and a dedicated registry (not prom-client's global one) keeps other libraries' metrics out.
import { Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const registry = new Registry();

collectDefaultMetrics({ register: registry });

// Latency buckets from 1 ms (an in-process read) to 10 s (well past the default gRPC deadline).
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Handling time of every gRPC call a server answers; `code` is the spec error code or `ok`. */
export const grpcServerSeconds = new Histogram({
  name: 'grpc_server_handling_seconds',
  help: 'Time a gRPC server took to answer a unary call, by method path and result code.',
  labelNames: ['method', 'code'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

/** HTTP latency at the gateway; `route` is the registry's route pattern, never the raw path. */
export const httpRequestSeconds = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time the gateway took to answer an HTTP request, by method, route pattern and status code.',
  labelNames: ['method', 'route', 'code'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const metricsContentType: string = registry.contentType;

/** The exposition text for GET /metrics. */
export function metricsText(): Promise<string> {
  return registry.metrics();
}
