// The webhooks service as it runs anywhere: its store (with the outbox relay for its own write
// events), the dispatcher that consumes the event log and delivers, and the gRPC server. Used by
// the one-process platform and by the service's own process alike.
import { openRelayedStore } from '@fieldops/kit/outbox/relayed-store';
import type { Config } from '@fieldops/kit/config';
import type { EventLog } from '@fieldops/kit/events/port';
import type { GrpcServer } from '@fieldops/kit/grpc/server';
import type { Logger } from '@fieldops/kit/log';
import type { ShutdownStack } from '@fieldops/kit/process/shutdown-stack';
import { dispatchSettingsFromEnv } from './dispatch/dispatch-settings.js';
import { openWebhooksDomain } from './index.js';
import { startWebhooksServer } from './server.js';

export async function startWebhooks(options: {
  config: Config;
  log: EventLog;
  logger: Logger;
  shutdown: ShutdownStack;
  host?: string;
  port?: number;
}): Promise<GrpcServer> {
  const { config, log, logger, shutdown } = options;
  const store = await openRelayedStore(config, 'webhooks', { log, logger, shutdown });
  const settings = dispatchSettingsFromEnv(config.webhookAllowPrivate);
  const domain = await openWebhooksDomain({ store, settings });
  const dispatcher = await domain.startDispatcher(log, logger);
  shutdown.push(() => dispatcher.stop());
  const server = await startWebhooksServer({
    handlers: domain.handlers,
    logger,
    host: options.host,
    port: options.port,
  });
  shutdown.push(() => server.stop());
  return server;
}
