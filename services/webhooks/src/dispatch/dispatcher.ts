// The dispatcher: the event consumer that creates deliveries and the worker that sends them.
import type { EventLog } from '@fieldops/kit/events';
import type { Logger } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import type { DispatchSettings } from './dispatch-settings.ts';
import { startDeliveryWorker } from './delivery-worker.ts';
import { startEventConsumer } from './event-consumer.ts';

export interface Dispatcher {
  wake(): void;
  /** Stops consuming, then lets the attempts in hand finish and record. */
  stop(): Promise<void>;
}

export async function startDispatcher(options: {
  log: EventLog;
  store: DocumentStore;
  settings: DispatchSettings;
  logger: Pick<Logger, 'warn' | 'error'>;
}): Promise<Dispatcher> {
  const worker = startDeliveryWorker(options);
  const consumer = await startEventConsumer({
    log: options.log,
    store: options.store,
    onDeliveries: worker.wake,
  });
  return {
    wake: worker.wake,
    stop: async () => {
      await consumer.stop();
      await worker.stop();
    },
  };
}
