// Feeds the change feed from the event log, in a consumer group of its own. Delivery is at least
// once; the feed records an event id once, so a redelivery after a crash adds nothing.
import { EVENT_TOPICS } from '@fieldops/contracts';
import {
  followFromStart,
  PermanentEventFailure,
  type EventLog,
  type Subscription,
} from '@fieldops/kit/events';
import type { Logger } from '@fieldops/kit';
import type { ChangeFeed } from './change-feed.ts';
import { changeOf, isFeedEvent } from './change-of-event.ts';

export const SYNC_GROUP = 'sync';

export async function startChangeConsumer(options: {
  log: EventLog;
  feed: ChangeFeed;
  logger: Pick<Logger, 'warn'>;
}): Promise<Subscription> {
  const { log, feed, logger } = options;
  // From the start: a client mirrors the tenant from its first change, made before the feed first
  // ran or not.
  return followFromStart(log, {
    group: SYNC_GROUP,
    topics: [...EVENT_TOPICS],
    handle: async (record) => {
      if (!isFeedEvent(record.value)) {
        const { topic, partition, offset } = record;
        logger.warn({ topic, partition, offset }, 'sync: record is not a domain event; rejected');
        throw new PermanentEventFailure(`Record ${topic}@${partition}:${offset} is not a domain event.`);
      }
      await feed.append(record.value.tenantId, changeOf(record.value));
    },
  });
}
