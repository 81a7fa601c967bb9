// Drives one target with autocannon from the load process (never the servers' event loop) and
// measures it; scripts/bench.ts adds what the servers process reports about its own CPU. Latency is taken from each response's own timing into a nanosecond histogram:
// autocannon's built-in latency histogram has 1 ms resolution, too coarse for sub-millisecond rows.
import { randomBytes } from 'node:crypto';
import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import autocannon from 'autocannon';
import type { TargetSpec } from './protocol.ts';

/** One uninterrupted stretch of load on one target. */
export interface Segment {
  requests: number;
  seconds: number;
  /** Response bytes including headers. */
  bytes: number;
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
  latency: RecordableHistogram;
  /** CPU the servers process spent on the segment, including the work it left behind. */
  cpuMicros: number;
  /** The part of it on the servers' main thread (absent for a cluster of processes). */
  mainMicros?: number;
  /** V8's full collections in the servers process over the segment (absent for a cluster). */
  fullCollections?: number;
  /** How long the servers process took to go quiet after the segment. */
  settleMs: number;
}

/** A target's segments of one run, merged. */
export interface Measurement {
  target: TargetSpec;
  /** Completed requests per second over all measured segments. */
  rps: number;
  /** req/s of each segment (one per round), to show how steady the row was. */
  roundRps: number[];
  p50Ms: number;
  p99Ms: number;
  /** Mean response size including headers, so rows can be checked to move comparable bodies. */
  bytesPerResponse: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** CPU of the servers process per request, in microseconds (deferred work included). */
  cpuMicrosPerRequest: number;
  /** The part of it on the servers' main thread; undefined when a segment did not report it. */
  mainMicrosPerRequest: number | undefined;
  /** Full collections of the servers' heap per 1 000 requests; undefined when not reported. */
  fullCollectionsPerThousand: number | undefined;
}

// Keys and emails are unique across warm-up and measured segments, and across bench runs.
const RUN = randomBytes(4).toString('hex');
let sequence = 0;

/** A small lead capture with a fresh Idempotency-Key and email (so no capture is deduped). */
function keyedLeadRequest(request: autocannon.Request): autocannon.Request {
  const n = ++sequence;
  const body = JSON.stringify({
    name: `Bench Lead ${n}`,
    email: `bench-${RUN}-${n}@example.com`,
    message: 'Please quote a roof inspection for next week.',
    source: 'bench',
  });
  return {
    ...request,
    method: 'POST',
    headers: {
      ...request.headers,
      'content-type': 'application/json',
      'idempotency-key': `bench-${RUN}-${n}`,
    },
    body,
  };
}

function optionsFor(target: TargetSpec, connections: number, seconds: number): autocannon.Options {
  const base: autocannon.Options = {
    url: target.url,
    connections,
    duration: seconds,
    method: target.method,
    headers: target.headers,
    timeout: 10,
  };
  return target.keyedPost ? { ...base, requests: [{ setupRequest: keyedLeadRequest }] } : base;
}

/** Load for `seconds`; the caller fills in the servers' CPU and settle time. */
export async function drive(
  target: TargetSpec,
  connections: number,
  seconds: number,
): Promise<Omit<Segment, 'cpuMicros' | 'mainMicros' | 'fullCollections' | 'settleMs'>> {
  const latency = createHistogram();
  let non2xx = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      optionsFor(target, connections, seconds),
      (err: unknown, done: autocannon.Result) =>
        err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(done),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
      latency.record(Math.max(1, Math.round(responseTimeMs * 1e6)));
      if (statusCode < 200 || statusCode > 299) non2xx++;
    });
  });
  return {
    requests: result.requests.total,
    seconds: result.duration,
    bytes: result.throughput.total,
    non2xx,
    errors: result.errors,
    latency,
  };
}

/** The sum, when every segment reported the figure. */
const total = (values: (number | undefined)[]): number | undefined =>
  values.every((value) => value !== undefined) ? values.reduce((sum, value) => sum + value, 0) : undefined;

export function summarize(target: TargetSpec, segments: Segment[]): Measurement {
  const latency = createHistogram();
  let requests = 0;
  let seconds = 0;
  let bytes = 0;
  let non2xx = 0;
  let errors = 0;
  let cpuMicros = 0;
  // Counted only when every segment reported it (the servers process does, a cluster does not).
  const mains = segments.map((segment) => segment.mainMicros);
  const mainMicros = total(mains);
  const fullCollections = total(segments.map((segment) => segment.fullCollections));
  for (const segment of segments) {
    cpuMicros += segment.cpuMicros;
    latency.add(segment.latency);
    requests += segment.requests;
    seconds += segment.seconds;
    bytes += segment.bytes;
    non2xx += segment.non2xx;
    errors += segment.errors;
  }
  return {
    target,
    rps: seconds > 0 ? requests / seconds : 0,
    roundRps: segments.map((segment) => (segment.seconds > 0 ? segment.requests / segment.seconds : 0)),
    p50Ms: requests ? latency.percentile(50) / 1e6 : 0,
    p99Ms: requests ? latency.percentile(99) / 1e6 : 0,
    bytesPerResponse: requests ? bytes / requests : 0,
    requests,
    non2xx,
    errors,
    cpuMicrosPerRequest: requests ? cpuMicros / requests : 0,
    mainMicrosPerRequest: requests && mainMicros !== undefined ? mainMicros / requests : undefined,
    fullCollectionsPerThousand:
      requests && fullCollections !== undefined ? (fullCollections / requests) * 1000 : undefined,
  };
}
