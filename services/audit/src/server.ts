// The audit gRPC server: reads of the tenant's trail and its verification.
import { bindDomain, listenOf, startGrpcServer, type GrpcListen, type GrpcServer } from '@fieldops/kit/grpc';
import { audit } from '@fieldops/proto';
import type { AuditHandlers } from './handlers.ts';
import type { DocumentStore } from '@fieldops/kit/store';
import { tenantDumpBinding } from '@fieldops/kit/domain';
import { LEDGER_COLLECTIONS } from './ledger.ts';

export function startAuditServer(
  options: GrpcListen & {
    handlers: AuditHandlers;
    /** The ledger's store: when given, its trail is served to tenant exports (TenantDumpService). */
    store?: DocumentStore;
  },
): Promise<GrpcServer> {
  return startGrpcServer({
    ...listenOf(options),
    services: [
      bindDomain(audit.AuditServiceService, options.handlers),
      ...(options.store ? [tenantDumpBinding('audit', options.store, LEDGER_COLLECTIONS)] : []),
    ],
  });
}
