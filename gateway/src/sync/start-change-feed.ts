// The change feed as the gateway runs it: its own store (no outbox: nothing consumes the feed's
// writes) and the consumer that fills it.
import { openServiceStore } from '@fieldops/kit/adapters';
import type { Config, Logger } from '@fieldops/kit';
import type { EventLog } from '@fieldops/kit/events';
import type { ShutdownStack } from '@fieldops/kit/process';
import { startChangeConsumer } from './change-consumer.ts';
import { openChangeFeed, type ChangeFeed } from './change-feed.ts';

export async function startChangeFeed(options: {
  config: Config;
  log: EventLog;
  logger: Logger;
  shutdown: ShutdownStack;
}): Promise<ChangeFeed> {
  const store = await openServiceStore(options.config, 'sync');
  options.shutdown.push(() => store.close());
  const feed = await openChangeFeed(store);
  const consumer = await startChangeConsumer({ log: options.log, feed, logger: options.logger });
  options.shutdown.push(() => consumer.stop());
  return feed;
}
