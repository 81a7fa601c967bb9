// The webhooks gRPC server: the WebhookService RPCs over the store webhooks owns.
import { bindDomain } from '@fieldops/kit/grpc/domain-binding';
import { startGrpcServer, type GrpcServer } from '@fieldops/kit/grpc/server';
import type { Logger } from '@fieldops/kit/log';
import { webhooks } from '@fieldops/proto';
import type { WebhookHandlers } from './handlers.js';

export function startWebhooksServer(options: {
  handlers: WebhookHandlers;
  logger: Logger;
  host?: string;
  port?: number;
}): Promise<GrpcServer> {
  return startGrpcServer({
    host: options.host,
    port: options.port,
    logger: options.logger,
    services: [bindDomain(webhooks.WebhookServiceService, options.handlers)],
  });
}
