// The AuditService RPCs, derived like every service's (handlersOf: each RPC is the function of its
// name in entries.ts, given the ledger). The gRPC binding is one line (server.ts); tests call the
// same functions.
import { audit } from '@fieldops/proto';
import { handlersOf, type DomainHandlers } from '@fieldops/kit/grpc';
import * as entries from './entries.ts';
import type { Ledger } from './ledger.ts';

/** One handler per AuditService RPC, typed from the generated definition. */
export type AuditHandlers = DomainHandlers<audit.AuditServiceService>;

export function createAuditHandlers(ledger: Ledger): AuditHandlers {
  return handlersOf(audit.AuditServiceService, ledger, entries);
}
