// The audit domain: the tenant's tamper-evident trail of every write, fed by the write events.
import type { EventLog, Subscription } from '@fieldops/kit/events';
import type { DocumentStore } from '@fieldops/kit/store';
import { startAuditConsumer, type ConsumerLogger } from './consumer.ts';
import { createAuditHandlers, type AuditHandlers } from './handlers.ts';
import { openLedger, type Ledger } from './ledger.ts';

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

export { genesisHash, hashEntry, verifyChain } from './chain.ts';
export type { AuditEntry, ChainHead, ChainVerification } from './chain.ts';
export type { AuditHandlers } from './handlers.ts';
export type { Ledger, LedgerVerification, ListQuery } from './ledger.ts';
