// Every consumer's handling of a record is a span of the trace of the write that emitted it: the
// record's `traceparent` header (the relay's publish span), or, for a record published without
// one, the trace its envelope carries. Wrapped around the opened log (adapters.ts), so it holds
// for every adapter and every subscription alike.
import { throughHop, startHop, type TraceCarrier } from '../tracing/hops.ts';
import { traceOfEvent } from './envelope.ts';
import type { EventLog, EventRecord, SubscribeOptions } from './port.ts';

/** The trace a record joins: its headers' context, else its envelope's. */
export function traceOfRecord(record: EventRecord): TraceCarrier {
  const traceparent = record.headers['traceparent'];
  if (!traceparent) return traceOfEvent(record.value);
  const tracestate = record.headers['tracestate'];
  return tracestate ? { traceparent, tracestate } : { traceparent };
}

function tracedHandle(group: string, handle: SubscribeOptions['handle']): SubscribeOptions['handle'] {
  return (record) => {
    const hop = startHop(`consume ${record.topic}`, 'consumer', traceOfRecord(record), {
      'messaging.destination.name': record.topic,
      'messaging.consumer.group.name': group,
      'messaging.kafka.offset': record.offset,
    });
    return throughHop(hop, () => handle(record));
  };
}

/** `log`, its subscriptions' handlers each run in a consumer span. */
export function traceConsumers(log: EventLog): EventLog {
  const subscribe = log.subscribe.bind(log);
  log.subscribe = (options) => subscribe({ ...options, handle: tracedHandle(options.group, options.handle) });
  return log;
}
