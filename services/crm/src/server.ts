// The crm gRPC server: the CrmService RPCs over the store crm owns.
import { bindDomain } from '@fieldops/kit/grpc/domain-binding';
import { startGrpcServer, type GrpcServer } from '@fieldops/kit/grpc/server';
import type { Logger } from '@fieldops/kit/log';
import type { DocumentStore } from '@fieldops/kit/store/port';
import { crm } from '@fieldops/proto';
import { openCrmDomain } from './index.js';

export async function startCrmServer(options: {
  store: DocumentStore;
  logger: Logger;
  host?: string;
  port?: number;
}): Promise<GrpcServer> {
  const handlers = await openCrmDomain({ store: options.store });
  return startGrpcServer({
    host: options.host,
    port: options.port,
    logger: options.logger,
    services: [bindDomain(crm.CrmServiceService, handlers)],
  });
}
