// Which failures of an event handler wait and which are set aside (failure-class.ts): a dependency
// away must never dead-letter a good event; only a record no retry can fix is.
import { status as GrpcStatus } from '@grpc/grpc-js';
import { AppError } from '../src/errors.ts';
import { classifyFailure } from '../src/events/failure-class.ts';
import { UndecodableRecord } from '../src/events/kafka/records.ts';
import { PermanentEventFailure } from '../src/events/port.ts';
import { decideAfterFailure, jitteredBackoffMs } from '../src/events/record-retry.ts';

const named = (name: string, extra: Record<string, unknown> = {}): Error =>
  Object.assign(new Error(name), { name, ...extra });

describe('classifyFailure', () => {
  it.each([
    ['the store unavailable', new AppError('unavailable', 'The store is not answering.')],
    ['an unknown commit outcome', new AppError('outcome_unknown', 'The answer was lost.')],
    ['a peer refusing connections', Object.assign(new Error('connect'), { code: 'ECONNREFUSED' })],
    [
      'a gRPC deadline',
      Object.assign(new Error('deadline'), { code: GrpcStatus.DEADLINE_EXCEEDED, details: '' }),
    ],
    ['a gRPC peer down', Object.assign(new Error('down'), { code: GrpcStatus.UNAVAILABLE, details: '' })],
    ['a MongoDB failover', named('MongoServerSelectionError')],
    [
      'a MongoDB transient label',
      Object.assign(new Error('tx'), { errorLabels: ['TransientTransactionError'] }),
    ],
    ['a driver retriable error', Object.assign(new Error('k'), { retriable: true })],
    ['a lost Kafka broker', Object.assign(new Error('k'), { code: 'PLT_KFK_NETWORK', canRetry: true })],
    ['a transient Kafka answer', Object.assign(new Error('k'), { code: 'PLT_KFK_PROTOCOL', canRetry: true })],
    [
      'a Kafka aggregate of lost brokers',
      new AggregateError([Object.assign(new Error('k'), { code: 'PLT_KFK_NETWORK' })], 'k'),
    ],
    ['a timeout', named('TimeoutError')],
    ['a cause that is retryable', new Error('wrapped', { cause: new AppError('unavailable', 'x') })],
  ])('waits on %s', (_what, error) => {
    expect(classifyFailure(error)).toBe('retryable');
  });

  it.each([
    ['a handler refusal', new PermanentEventFailure('not a domain event')],
    ['a record that is not JSON', new UndecodableRecord('t', 0, 1n, new SyntaxError('x'))],
  ])('sets aside %s', (_what, error) => {
    expect(classifyFailure(error)).toBe('permanent');
  });

  it('leaves a bug (or a refusal of the request) unclassified', () => {
    expect(classifyFailure(new TypeError('x is undefined'))).toBe('unclassified');
    expect(classifyFailure(new AppError('invalid_body', 'no'))).toBe('unclassified');
    expect(classifyFailure('a string')).toBe('unclassified');
  });
});

describe('decideAfterFailure', () => {
  const where = { group: 'g-decide', topic: 't' };
  const policy = { baseMs: 100, capMs: 1_000, maxAttempts: Number.POSITIVE_INFINITY };

  it('retries a retryable failure for ever, even past a subscription limit', () => {
    const decision = decideAfterFailure(
      new AppError('unavailable', 'x'),
      10_000,
      { ...policy, maxAttempts: 3 },
      where,
    );
    expect(decision.action).toBe('retry');
  });

  it('dead-letters a permanent failure at once, saying why in headers', () => {
    const decision = decideAfterFailure(new PermanentEventFailure('bad schema'), 1, policy, where);
    expect(decision).toMatchObject({
      action: 'dead-letter',
      headers: {
        'x-error': 'PermanentEventFailure: bad schema',
        'x-failure-class': 'permanent',
        'x-attempts': '1',
      },
    });
  });

  it('dead-letters an unclassified failure only after the limit a subscription sets', () => {
    expect(decideAfterFailure(new Error('bug'), 2, { ...policy, maxAttempts: 3 }, where).action).toBe(
      'retry',
    );
    expect(decideAfterFailure(new Error('bug'), 3, { ...policy, maxAttempts: 3 }, where).action).toBe(
      'dead-letter',
    );
    expect(decideAfterFailure(new Error('bug'), 1_000, policy, where).action).toBe('retry');
  });

  it('keeps the back-off within half and all of its capped ceiling', () => {
    for (let attempt = 1; attempt < 60; attempt += 1) {
      const ceiling = Math.min(1_000, 100 * 2 ** (attempt - 1));
      const delay = jitteredBackoffMs(100, attempt, 1_000);
      expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
      expect(delay).toBeLessThanOrEqual(ceiling);
    }
  });
});
