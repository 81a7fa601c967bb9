// A service's own store with its outbox relay running: what every service that writes needs.
// Both are registered on the shutdown stack, so the relay stops before its store closes.
import { openServiceStore } from '../adapters.ts';
import type { Config } from '../config.ts';
import type { EventLog } from '../events/port.ts';
import type { Logger } from '../log.ts';
import type { ShutdownStack } from './shutdown-stack.ts';
import type { DocumentStore } from '../store/port.ts';
import { startOutboxRelay } from '../outbox/relay.ts';

export async function openRelayedStore(
  config: Config,
  service: string,
  deps: { log: EventLog; logger: Logger; shutdown: ShutdownStack },
): Promise<DocumentStore> {
  const store = await openServiceStore(config, service);
  deps.shutdown.push(() => store.close());
  const relay = startOutboxRelay({
    store,
    log: deps.log,
    onError: (err: unknown) => deps.logger.warn({ err, store: service }, 'outbox relay'),
  });
  deps.shutdown.push(() => relay.stop());
  return store;
}
