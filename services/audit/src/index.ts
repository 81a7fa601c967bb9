// The audit domain: the tenant's tamper-evident trail of every write, fed by the write events.
import type { EventLog, Subscription } from '@fieldops/kit/events';
import type { DocumentStore } from '@fieldops/kit/store';
import { startAuditConsumer, type ConsumerLogger } from './consumer.js';
import { createAuditHandlers, type AuditHandlers } from './handlers.js';
import { openLedger, type Ledger } from './ledger.js';

export interface AuditDomain {
  ledger: Ledger;
  handlers: AuditHandlers;
  /** Subscribes the ledger to every write-event topic; stop the subscription to shut down. */
  startConsumer(): Promise<Subscription>;
}

export async function openAuditDomain(deps: {
  store: DocumentStore;
  log: EventLog;
  logger?: ConsumerLogger;
}): Promise<AuditDomain> {
  const ledger = await openLedger(deps.store);
  return {
    ledger,
    handlers: createAuditHandlers(ledger),
    startConsumer: () => startAuditConsumer({ log: deps.log, ledger, logger: deps.logger }),
  };
}

export { genesisHash, hashEntry, verifyChain } from './chain.js';
export type { AuditEntry, ChainHead, ChainVerification } from './chain.js';
export type { AuditHandlers } from './handlers.js';
export type { Ledger, LedgerVerification, ListQuery } from './ledger.js';
