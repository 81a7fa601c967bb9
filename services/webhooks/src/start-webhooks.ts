// The webhooks service as it runs anywhere: its store (with the outbox relay for its own write
// events), the dispatcher that consumes the event log and delivers, and the gRPC server. Used by
// the one-process platform and by the service's own process alike.
import { listenOf, type GrpcServer } from '@fieldops/kit/grpc';
import { type ServiceStartOptions, openRelayedStore } from '@fieldops/kit/process';
import { dispatchSettingsFromEnv } from './dispatch/dispatch-settings.ts';
import { openWebhooksDomain } from './index.ts';
import { startWebhooksServer } from './server.ts';

export async function startWebhooks(options: ServiceStartOptions): Promise<GrpcServer> {
  const { config, log, logger, shutdown } = options;
  const store = await openRelayedStore(config, 'webhooks', { log, logger, shutdown });
  const settings = dispatchSettingsFromEnv(config.webhookAllowPrivate);
  const domain = await openWebhooksDomain({ store, settings });
  const dispatcher = await domain.startDispatcher(log, logger);
  shutdown.push(() => dispatcher.stop());
  const server = await startWebhooksServer({
    handlers: domain.handlers,
    ...listenOf(options),
  });
  shutdown.push(() => server.stop());
  return server;
}
