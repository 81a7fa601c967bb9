import { EVENT_TOPICS } from '@fieldops/contracts';
import {
  followFromStart,
  type DomainEvent,
  PermanentEventFailure,
  type EventLog,
  type EventRecord,
  type Subscription,
} from '@fieldops/kit/events';
import { createLogger } from '@fieldops/kit';
import type { Ledger } from './ledger.ts';

export const AUDIT_GROUP = 'audit';

/** The part of a pino logger the consumer uses (default: the platform's, see kit/log.ts). */
export interface ConsumerLogger {
  warn(details: Record<string, unknown>, message: string): void;
  debug?(details: Record<string, unknown>, message: string): void;
}

export interface AuditConsumerOptions {
  log: EventLog;
  ledger: Ledger;
  logger?: ConsumerLogger;
}

type Shape = Record<string, unknown>;

const isObject = (value: unknown): value is Shape => typeof value === 'object' && value !== null;

const hasStrings = (value: unknown, keys: string[]): value is Shape =>
  isObject(value) && keys.every((key) => typeof value[key] === 'string');

/** A record the ledger can hash: every field an entry is made of must be there with its type. */
export function isDomainEvent(value: unknown): value is DomainEvent {
  if (!hasStrings(value, ['id', 'type', 'tenantId', 'occurredAt'])) return false;
  if (!value['id'] || !value['tenantId'] || !isObject(value['data'])) return false;
  const context = value['context'];
  return (
    hasStrings(value['resource'], ['kind', 'id']) &&
    hasStrings(context, ['requestId', 'operation', 'idempotencyKey']) &&
    hasStrings(context['principal'], ['kind', 'tokenId', 'role', 'memberId']) &&
    hasStrings(context['agent'], ['runId', 'task', 'model', 'confirmedBy'])
  );
}

function malformed(record: EventRecord): Error {
  return new PermanentEventFailure(
    `Record ${record.topic}@${record.partition}:${record.offset} is not a domain event.`,
  );
}

export async function startAuditConsumer(options: AuditConsumerOptions): Promise<Subscription> {
  const { log, ledger, logger = createLogger('audit') } = options;
  // The trail must hold every write ever made, not only those after the consumer first ran.
  return followFromStart(log, {
    group: AUDIT_GROUP,
    topics: [...EVENT_TOPICS],
    handle: async (record) => {
      if (!isDomainEvent(record.value)) {
        // No retry can fix it: straight to the DLQ, so the writes behind it are not held up.
        const { topic, partition, offset, key } = record;
        logger.warn({ topic, partition, offset, key }, 'audit: record is not a domain event; rejected');
        throw malformed(record);
      }
      const { entry, appended } = await ledger.append(record.value);
      // At debug only (one line per write otherwise); in the record's consumer span, so it carries
      // the trace id of the write it records (kit/log.ts).
      logger.debug?.({ eventId: entry.eventId, seq: entry.seq, appended }, 'audit: entry appended');
    },
  });
}
