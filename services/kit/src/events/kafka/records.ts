// Between the port's records and Kafka's messages. Values travel as JSON text (what the embedded
// log stores), keys and headers as UTF-8 strings, so a record reads back exactly as published.
// Everything crosses as bytes: the client (@platformatic/kafka) runs with its no-op serializers.
import { PermanentEventFailure, type EventMessage, type EventRecord } from '../port.ts';
import { isDeadLetterTopic } from '../topic-name.ts';

/** A message to send: the client's MessageToProduce with bytes for key, value and headers. */
export interface OutgoingMessage {
  topic: string;
  key: Buffer;
  /** Absent: a record without a value (only a dead letter too large for its topic). */
  value?: Buffer;
  headers: Map<Buffer, Buffer>;
}

/** A message as the broker hands it back (the client's Message, with its no-op deserializers). */
export interface FetchedMessage {
  key?: Buffer | null;
  value?: Buffer | null;
  headers: Map<Buffer, Buffer>;
  offset: bigint;
  /** Milliseconds since the epoch. */
  timestamp: bigint;
}

export function toKafkaMessage(topic: string, message: EventMessage): OutgoingMessage {
  return {
    topic,
    key: Buffer.from(message.key, 'utf8'),
    // JSON.stringify(undefined) is undefined; a missing value is published as JSON null.
    value: Buffer.from(JSON.stringify(message.value) ?? 'null', 'utf8'),
    headers: encodeHeaders(message.headers ?? {}),
  };
}

export function encodeHeaders(headers: Record<string, string>): Map<Buffer, Buffer> {
  return new Map(
    Object.entries(headers).map(([name, value]) => [Buffer.from(name, 'utf8'), Buffer.from(value, 'utf8')]),
  );
}

export function assertMessage(message: EventMessage): void {
  if (message === null || typeof message !== 'object')
    throw new TypeError('an event message must be an object');
  if (typeof message.key !== 'string') throw new TypeError('an event key must be a string');
  for (const [name, value] of Object.entries(message.headers ?? {})) {
    if (typeof value !== 'string') throw new TypeError(`event header ${name} must be a string`);
  }
}

/** A message whose value is not JSON: no handler can make sense of it, so it is dead-lettered. */
export class UndecodableRecord extends PermanentEventFailure {
  constructor(topic: string, partition: number, offset: bigint, cause: unknown) {
    super(`record ${topic}/${partition}@${offset} does not hold a JSON value`, { cause });
    this.name = 'UndecodableRecord';
  }
}

export function fromKafkaMessage(topic: string, partition: number, message: FetchedMessage): EventRecord {
  let value: unknown = null;
  if (message.value !== null && message.value !== undefined) {
    const text = message.value.toString('utf8');
    try {
      value = JSON.parse(text);
    } catch (error) {
      // A dead letter keeps the bytes that could not be parsed; its reader gets them as text.
      if (!isDeadLetterTopic(topic)) throw new UndecodableRecord(topic, partition, message.offset, error);
      value = text;
    }
  }
  return {
    topic,
    partition,
    offset: Number(message.offset),
    key: message.key?.toString('utf8') ?? '',
    value,
    headers: decodeHeaders(message.headers),
    timestamp: new Date(Number(message.timestamp)).toISOString(),
  };
}

/** Header values as strings; a header sent more than once keeps its last value. */
export function decodeHeaders(headers: Map<Buffer, Buffer> | undefined): Record<string, string> {
  const decoded: Record<string, string> = {};
  for (const [name, value] of headers ?? []) decoded[name.toString('utf8')] = value.toString('utf8');
  return decoded;
}

/** The dead letter of a message: its key and value bytes untouched, its headers plus why and where. */
export function deadLetterOf(
  dlqTopic: string,
  topic: string,
  partition: number,
  message: FetchedMessage,
  reason: Record<string, string>,
): OutgoingMessage {
  return {
    topic: dlqTopic,
    key: message.key ?? Buffer.alloc(0),
    ...(message.value === null || message.value === undefined ? {} : { value: message.value }),
    headers: encodeHeaders({
      ...decodeHeaders(message.headers),
      ...reason,
      'x-original-topic': topic,
      'x-original-partition': String(partition),
      'x-original-offset': String(message.offset),
    }),
  };
}

/** A dead letter whose value did not fit its topic: no value, and a header that says why. */
export function withoutValue(letter: OutgoingMessage): OutgoingMessage {
  const bytes = letter.value?.length ?? 0;
  const headers = decodeHeaders(letter.headers);
  headers['x-value-dropped'] =
    `${bytes} bytes, over the dead-letter topic's size limit; read it at the original offset`;
  return { topic: letter.topic, key: letter.key, headers: encodeHeaders(headers) };
}
