// The crm service's outbox events. Every write emits its event in the same commit as the change
// (runWrite commits plan.ops together), so subscribers and the audit ledger never miss one.
import type { ServiceEventType } from '@fieldops/contracts';
import { outboxEmitter } from '@fieldops/kit/events';

export const CRM_SERVICE = 'crm';

/** Event types this service emits, as the catalogue (contracts/src/webhook-event-types.ts) lists them. */
export type CrmEventType = ServiceEventType<'crm'>;

export const emitCrmEvent = outboxEmitter<CrmEventType>(CRM_SERVICE);
