// Prometheus metrics. One registry per process: services that run in-process together share it,
// and a dedicated registry (not prom-client's global one) keeps other libraries' metrics out.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

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

/**
 * Failed attempts of an event consumer that will be tried again; `class` is failure-class.ts's
 * (retryable: a dependency away; unclassified: anything else). A rising rate means a partition waits.
 */
export const eventRetries = new Counter({
  name: 'fieldops_event_retries_total',
  help: 'Failed attempts at handling an event record that are retried, by group, topic and failure class.',
  labelNames: ['group', 'topic', 'class'] as const,
  registers: [registry],
});

/** Records set aside in `<topic>.dlq`: only those that can never succeed (see docs/production-adapters.md). */
export const eventDeadLetters = new Counter({
  name: 'fieldops_event_dead_letters_total',
  help: 'Event records moved to their dead-letter topic, by group, topic and failure class.',
  labelNames: ['group', 'topic', 'class'] as const,
  registers: [registry],
});

/** 1 while a consumer holds a record back for a retry (its partition waits), else 0. */
export const eventConsumerWaiting = new Gauge({
  name: 'fieldops_event_consumer_waiting',
  help: 'Whether a consumer group holds a record back for a retry on a topic (1) or not (0).',
  labelNames: ['group', 'topic'] as const,
  registers: [registry],
});

/** 1 while a consumer (group) or the producer (`producer`) reaches the broker, 0 while it reconnects. */
export const eventBrokerConnected = new Gauge({
  name: 'fieldops_event_broker_connected',
  help: 'Whether an event-log client (a consumer group, or the producer) reaches its broker (1) or is reconnecting (0).',
  labelNames: ['client'] as const,
  registers: [registry],
});

/** Starts of a consumer after its stream failed (the broker away, say), failed or not. */
export const eventConsumerRestarts = new Counter({
  name: 'fieldops_event_consumer_restarts_total',
  help: 'Attempts at starting an event consumer again after it stopped (the broker lost), by group and result.',
  labelNames: ['client', 'result'] as const,
  registers: [registry],
});

export const metricsContentType: string = registry.contentType;

/** The exposition text for GET /metrics. */
export function metricsText(): Promise<string> {
  return registry.metrics();
}

/**
 * A gauge read at each scrape from a source a service sets (one per process; tests start several
 * platforms in one process, and the last one's source counts). Setting returns the undoing.
 */
export function scrapedGauge(name: string, help: string): { from(read: () => Promise<number>): () => void } {
  let source: (() => Promise<number>) | undefined;
  const gauge = new Gauge({
    name,
    help,
    registers: [registry],
    async collect() {
      if (source) this.set(await source());
    },
  });
  return {
    from(read) {
      source = read;
      return () => {
        if (source === read) source = undefined;
        gauge.reset();
      };
    },
  };
}
