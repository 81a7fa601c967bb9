// Spans for the calls a process makes to its stores: the document store (MongoDB or the embedded
// store) and the fast state (Redis or in-process). They are made at the port, for every adapter,
// instead of by the ioredis and mongodb auto-instrumentations, which patch modules through a
// loader hook that every start-up path would need (docs/decisions.md, "Tracing: spans at our own
// hops"). A store call then shows as a child span of the request, call or event that made it.
import { context, trace, type Attributes } from '@opentelemetry/api';
import { startHop, throughHop } from './hops.ts';

export interface TracedCalls<T> {
  /** `db.system.name` of the adapter: `mongodb`, `redis`, or `fieldops.embedded`. */
  system: string;
  /** The methods whose calls become spans (each must return a promise). */
  methods: readonly (keyof T & string)[];
  /**
   * The collection (or other target) a call names, for the span's name and
   * `db.collection.name`. Never a key or a value: those can carry tenant data or secrets.
   */
  targetOf?: (method: string, args: readonly unknown[]) => string | undefined;
}

type Method = (...args: unknown[]) => Promise<unknown>;

/**
 * Wraps each listed method of `port` (in place, as the adapters' own wrappers do) so that a call
 * made inside a recorded span is a client span named `<method> <target>`. Outside a recorded
 * span the call goes straight through: with nothing sampled (the default without an OTLP
 * endpoint) a span here would be ids nobody reads, on every read of the hot path.
 */
export function traceCalls<T extends object>(port: T, spec: TracedCalls<T>): T {
  const methods = port as Record<string, Method>;
  for (const name of spec.methods) {
    const original = methods[name]!.bind(port);
    methods[name] = (...args: unknown[]) => {
      if (!trace.getSpan(context.active())?.isRecording()) return original(...args);
      const target = spec.targetOf?.(name, args);
      const attributes: Attributes = { 'db.system.name': spec.system, 'db.operation.name': name };
      if (target !== undefined) attributes['db.collection.name'] = target;
      const hop = startHop(
        target === undefined ? name : `${name} ${target}`,
        'client',
        undefined,
        attributes,
      );
      return throughHop(hop, () => original(...args));
    };
  }
  return port;
}
