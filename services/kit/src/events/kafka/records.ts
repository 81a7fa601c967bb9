// Between the port's records and Kafka's messages. Values travel as JSON text (what the embedded
// log stores), keys and headers as UTF-8 strings, so a record reads back exactly as published.
import type { IHeaders, KafkaMessage, Message } from 'kafkajs';
import { PermanentEventFailure, type EventMessage, type EventRecord } from '../port.js';
import { isDeadLetterTopic } from '../topic-name.js';

export function toKafkaMessage(message: EventMessage): Message {
  return {
    key: message.key,
    // JSON.stringify(undefined) is undefined; a missing value is published as JSON null.
    value: JSON.stringify(message.value) ?? 'null',
    headers: { ...message.headers },
  };
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
  constructor(topic: string, partition: number, offset: string, cause: unknown) {
    super(`record ${topic}/${partition}@${offset} does not hold a JSON value`, { cause });
    this.name = 'UndecodableRecord';
  }
}

export function fromKafkaMessage(topic: string, partition: number, message: KafkaMessage): EventRecord {
  let value: unknown = null;
  if (message.value !== null) {
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
export function decodeHeaders(headers: IHeaders | undefined): Record<string, string> {
  const decoded: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers ?? {})) {
    const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    if (value !== undefined) decoded[name] = value.toString();
  }
  return decoded;
}

/** The dead letter of a message: its key and value bytes untouched, its headers plus why and where. */
export function deadLetterOf(
  topic: string,
  partition: number,
  message: KafkaMessage,
  reason: Record<string, string>,
): Message {
  return {
    key: message.key,
    value: message.value,
    headers: {
      ...decodeHeaders(message.headers),
      ...reason,
      'x-original-topic': topic,
      'x-original-partition': String(partition),
      'x-original-offset': message.offset,
    },
  };
}

/** A dead letter whose value did not fit its topic: no value, and a header that says why. */
export function withoutValue(letter: Message, original: KafkaMessage): Message {
  const bytes = original.value?.length ?? 0;
  return {
    key: letter.key,
    value: null,
    headers: {
      ...(letter.headers as Record<string, string>),
      'x-value-dropped': `${bytes} bytes, over the dead-letter topic's size limit; read it at the original offset`,
    },
  };
}
