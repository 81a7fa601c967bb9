// Why: both event logs (embedded, Kafka) read a subscribe() call's options the same way: a named
// group, its distinct topics, where a new group starts, and how often a record whose failure is
// unclassified is tried (record-retry.ts). The defaults and refusals are written once here, so a
// subscription behaves alike on both.
import type { SubscribeOptions } from './port.ts';

/** No limit: a good event is never set aside because something it needs is away (issue 34). */
export const DEFAULT_MAX_ATTEMPTS = Number.POSITIVE_INFINITY;

export interface CheckedSubscription {
  group: string;
  /** Each topic once, in the order given. */
  topics: string[];
  fromBeginning: boolean;
  maxAttempts: number;
}

/** The options with their defaults; RangeError for a nameless group, no topic or a bad maxAttempts. */
export function checkSubscription(options: SubscribeOptions): CheckedSubscription {
  const { group } = options;
  const topics = [...new Set(options.topics)];
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (typeof group !== 'string' || group === '') throw new RangeError('a group needs a name');
  if (topics.length === 0) throw new RangeError('subscribe needs at least one topic');
  if (!(Number.isInteger(maxAttempts) || maxAttempts === Number.POSITIVE_INFINITY) || maxAttempts < 1) {
    throw new RangeError(`maxAttempts must be a whole number of at least 1, not ${maxAttempts}`);
  }
  return { group, topics, fromBeginning: options.fromBeginning !== false, maxAttempts };
}
