// The webhooks domain: subscriptions, their delivery log and the dispatcher that sends events.
import type { EventLog } from '@fieldops/kit/events';
import type { Logger } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import { defineWebhookCollections } from './collections.ts';
import { startDispatcher, type Dispatcher } from './dispatch/dispatcher.ts';
import type { DispatchSettings } from './dispatch/dispatch-settings.ts';
import { createWebhookHandlers, type WebhookHandlers } from './handlers.ts';

export interface WebhooksDomain {
  handlers: WebhookHandlers;
  /** Starts consuming the event log and delivering; stop the dispatcher to shut down. */
  startDispatcher(log: EventLog, logger: Pick<Logger, 'warn' | 'error'>): Promise<Dispatcher>;
}

export async function openWebhooksDomain(deps: {
  store: DocumentStore;
  settings: DispatchSettings;
}): Promise<WebhooksDomain> {
  await defineWebhookCollections(deps.store);
  let dispatcher: Dispatcher | undefined;
  const handlers = createWebhookHandlers(deps.store, {
    allowPrivate: deps.settings.allowPrivate,
    maxSubscriptions: deps.settings.maxSubscriptions,
    wake: () => dispatcher?.wake(),
  });
  return {
    handlers,
    startDispatcher: async (log, logger) => {
      dispatcher = await startDispatcher({ log, store: deps.store, settings: deps.settings, logger });
      return dispatcher;
    },
  };
}

export { WEBHOOK_COLLECTIONS, defineWebhookCollections } from './collections.ts';
export { createWebhookHandlers } from './handlers.ts';
export type { WebhookDeps, WebhookHandlers } from './handlers.ts';
export { dispatchSettingsFromEnv } from './dispatch/dispatch-settings.ts';
export type { DispatchSettings } from './dispatch/dispatch-settings.ts';
export type { Dispatcher } from './dispatch/dispatcher.ts';
