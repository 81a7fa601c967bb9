// How records cross into Kafka and back (the Kafka suite proves it against a broker; this runs
// everywhere): what a consumer reads is what was published, and a value that is not JSON becomes a
// dead letter that keeps its bytes and says where it came from.
import {
  deadLetterOf,
  decodeHeaders,
  fromKafkaMessage,
  type FetchedMessage,
  toKafkaMessage,
  UndecodableRecord,
  withoutValue,
} from '../src/events/kafka/records.ts';

/** A message as the broker hands it back: bytes for key, value and headers. */
function asFetched(message: ReturnType<typeof toKafkaMessage>, offset = 41n): FetchedMessage {
  return {
    key: message.key,
    value: message.value ?? null,
    headers: message.headers,
    offset,
    timestamp: 1767225600000n,
  };
}

describe('kafka records', () => {
  it('reads back the key, the JSON value and the headers that were published', () => {
    const values = [{ nested: { list: [1, 'two', null] } }, 'text ✓', 0, false, null, [{ a: 1 }]];
    for (const value of values) {
      const message = toKafkaMessage('t', { key: 'tenant-a', value, headers: { 'x-event-id': 'e1' } });
      const record = fromKafkaMessage('fieldops.crm.events', 2, asFetched(message));
      expect(record).toEqual({
        topic: 'fieldops.crm.events',
        partition: 2,
        offset: 41,
        key: 'tenant-a',
        value,
        headers: { 'x-event-id': 'e1' },
        timestamp: '2026-01-01T00:00:00.000Z',
      });
    }
  });

  it('publishes a missing value as JSON null, and gives a message without headers empty ones', () => {
    const message = toKafkaMessage('t', { key: 'k', value: undefined });
    expect(message.value).toEqual(Buffer.from('null'));
    expect(fromKafkaMessage('t', 0, asFetched(message)).headers).toEqual({});
  });

  it('refuses a value that is not JSON as undecodable, naming where it is', () => {
    const fetched = {
      ...asFetched(toKafkaMessage('t', { key: 'k', value: 1 })),
      value: Buffer.from('not json {'),
    };
    expect(() => fromKafkaMessage('orders', 1, fetched)).toThrow(UndecodableRecord);
    expect(() => fromKafkaMessage('orders', 1, fetched)).toThrow(
      'record orders/1@41 does not hold a JSON value',
    );
  });

  it('makes a dead letter that keeps the bytes and headers and adds why and where', () => {
    const fetched = {
      ...asFetched(toKafkaMessage('t', { key: 'bad', value: 1, headers: { 'x-trace': 't1' } }), 7n),
      value: Buffer.from('not json {'),
    };
    const letter = deadLetterOf('orders.dlq', 'orders', 3, fetched, {
      'x-error': 'Error: poison pill',
      'x-failure-class': 'permanent',
    });
    expect(letter.key).toEqual(Buffer.from('bad'));
    expect(letter.value).toEqual(Buffer.from('not json {'));
    expect(letter.topic).toBe('orders.dlq');
    expect(decodeHeaders(letter.headers)).toEqual({
      'x-trace': 't1',
      'x-error': 'Error: poison pill',
      'x-failure-class': 'permanent',
      'x-original-topic': 'orders',
      'x-original-partition': '3',
      'x-original-offset': '7',
    });
  });

  it('reads a dead letter whose value is not JSON as the text it holds', () => {
    const fetched = {
      ...asFetched(toKafkaMessage('t', { key: 'bad', value: 1 })),
      value: Buffer.from('not json {'),
    };
    expect(fromKafkaMessage('orders.dlq', 0, fetched).value).toBe('not json {');
  });

  it('drops the value of a dead letter too large for its topic, and says so', () => {
    const fetched = {
      ...asFetched(toKafkaMessage('t', { key: 'big', value: 1 }), 9n),
      value: Buffer.alloc(5000, 120),
    };
    const letter = withoutValue(deadLetterOf('orders.dlq', 'orders', 2, fetched, { 'x-error': 'Error: x' }));
    expect(letter.value).toBeUndefined();
    const headers = decodeHeaders(letter.headers);
    expect(headers).toMatchObject({ 'x-original-offset': '9', 'x-original-partition': '2' });
    expect(headers['x-value-dropped']).toMatch(/^5000 bytes/);
  });
});
