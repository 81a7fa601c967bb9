// Why: a dead letter is a record no retry could fix (failure-class.ts); it waits in `<topic>.dlq`
// for an operator. These are the operator's two moves, behind `npm run events -- dlq list|replay`:
// see what is there and why, and send a letter back to the topic it came from once its cause is
// fixed (a consumer released with a fix, a schema widened). Both work on either event log.
import type { EventLog, EventRecord } from './port.ts';
import { isDeadLetterTopic } from './topic-name.ts';

export interface DeadLetter {
  /** `<dead-letter topic>/<partition>@<offset>`: where the letter is, unique on the log. */
  id: string;
  /** The topic the record came from (and goes back to on replay). */
  topic: string;
  /** The domain event's id, when the record was one. */
  eventId: string;
  key: string;
  error: string;
  failureClass: string;
  deadLetteredAt: string;
  record: EventRecord;
}

export interface DeadLetterFilter {
  /** The original topic, or its dead-letter topic. */
  topic?: string;
  /** A letter's id, or the event id it carries. */
  id?: string;
}

/** Headers a consumer added when it set a record aside; a replay sends the record without them. */
const REASON_HEADERS = new Set([
  'x-error',
  'x-failure-class',
  'x-attempts',
  'x-dead-lettered-at',
  'x-original-topic',
  'x-original-partition',
  'x-original-offset',
]);

export async function listDeadLetters(log: EventLog, filter: DeadLetterFilter = {}): Promise<DeadLetter[]> {
  const wanted = filter.topic === undefined ? undefined : originalTopicOf(filter.topic);
  const letters: DeadLetter[] = [];
  for (const dlq of (await log.listTopics()).filter(isDeadLetterTopic)) {
    if (wanted !== undefined && originalTopicOf(dlq) !== wanted) continue;
    for (const record of await log.readTopic(dlq)) {
      const letter = toDeadLetter(record);
      if (filter.id === undefined || letter.id === filter.id || letter.eventId === filter.id)
        letters.push(letter);
    }
  }
  return letters;
}

export interface ReplayOutcome {
  replayed: DeadLetter[];
  /** Letters that cannot go back as they were (their value was dropped for its size). */
  skipped: { letter: DeadLetter; reason: string }[];
}

/**
 * Publishes each letter the filter selects back to its original topic, with its key, value and
 * original headers, plus `x-replayed-from: <letter id>`. Consumers dedupe by event id, so a letter
 * replayed twice takes effect once; one that fails permanently again returns to the dead letters.
 */
export async function replayDeadLetters(
  log: EventLog,
  filter: DeadLetterFilter = {},
): Promise<ReplayOutcome> {
  const outcome: ReplayOutcome = { replayed: [], skipped: [] };
  for (const letter of await listDeadLetters(log, filter)) {
    if (letter.record.headers['x-value-dropped'] !== undefined) {
      outcome.skipped.push({
        letter,
        reason: 'its value was dropped for its size; read it at the original offset',
      });
      continue;
    }
    const headers: Record<string, string> = { 'x-replayed-from': letter.id };
    for (const [name, value] of Object.entries(letter.record.headers)) {
      if (!REASON_HEADERS.has(name)) headers[name] = value;
    }
    await log.publish(letter.topic, [{ key: letter.key, value: letter.record.value, headers }]);
    outcome.replayed.push(letter);
  }
  return outcome;
}

function toDeadLetter(record: EventRecord): DeadLetter {
  const { headers } = record;
  const value = record.value as { id?: unknown } | null;
  return {
    id: `${record.topic}/${record.partition}@${record.offset}`,
    // From the letter's own topic: x-original-topic carries the cluster's (namespaced) name.
    topic: originalTopicOf(record.topic),
    eventId: headers['x-event-id'] ?? (typeof value?.id === 'string' ? value.id : ''),
    key: record.key,
    error: headers['x-error'] ?? '',
    failureClass: headers['x-failure-class'] ?? '',
    deadLetteredAt: headers['x-dead-lettered-at'] ?? record.timestamp,
    record,
  };
}

const originalTopicOf = (topic: string): string =>
  isDeadLetterTopic(topic) ? topic.slice(0, -'.dlq'.length) : topic;
