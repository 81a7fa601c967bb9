// The audit service as it runs anywhere: its ledger store, the consumer that appends every write
// event to the tenant's chain, and the gRPC server that reads it. Used by the one-process platform
// and by audit's own process alike.
import { openServiceStore } from '@fieldops/kit/adapters';
import { listenOf, type GrpcServer } from '@fieldops/kit/grpc';
import type { ServiceStartOptions } from '@fieldops/kit/process';
import { openAuditDomain } from './index.ts';
import { startAuditServer } from './server.ts';

export async function startAudit(options: ServiceStartOptions): Promise<GrpcServer> {
  const { config, log, shutdown } = options;
  // The ledger writes no outbox (nothing consumes audit entries), so its store needs no relay.
  const store = await openServiceStore(config, 'audit');
  shutdown.push(() => store.close());
  const audit = await openAuditDomain({ store, log, logger: options.logger });
  const consumer = await audit.startConsumer();
  shutdown.push(() => consumer.stop());
  const server = await startAuditServer({
    handlers: audit.handlers,
    store,
    ...listenOf(options),
  });
  shutdown.push(() => server.stop());
  return server;
}
