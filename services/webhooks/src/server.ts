// The webhooks gRPC server: the WebhookService RPCs over the store webhooks owns.
import { bindDomain, listenOf, startGrpcServer, type GrpcListen, type GrpcServer } from '@fieldops/kit/grpc';
import { webhooks } from '@fieldops/proto';
import type { WebhookHandlers } from './handlers.ts';

export function startWebhooksServer(
  options: GrpcListen & {
    handlers: WebhookHandlers;
  },
): Promise<GrpcServer> {
  return startGrpcServer({
    ...listenOf(options),
    services: [bindDomain(webhooks.WebhookServiceService, options.handlers)],
  });
}
