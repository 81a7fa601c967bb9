// The tenant's invoice numbers: INV-000001, INV-000002, ... without gaps, taken when an invoice is
// issued (a draft has none, so abandoned drafts leave no holes). The counter is one document per
// tenant, replaced with a version check in the issuing commit: two racing issues cannot take the
// same number, the loser is re-planned by runWrite and takes the next one.
import { nowIso } from '@fieldops/kit';
import { INVOICE_COUNTERS } from '../collections.ts';
import { type Doc, type DocumentStore, type WriteOp, upsertOp } from '@fieldops/kit/store';

interface InvoiceCounterDoc extends Doc {
  last: number;
  updatedAt: string;
}

const COUNTER_ID = 'invoice_number';

export const formatInvoiceNumber = (n: number): string => `INV-${String(n).padStart(6, '0')}`;

export async function nextInvoiceNumber(
  store: DocumentStore,
  tenantId: string,
): Promise<{ number: string; op: WriteOp }> {
  const counter = await store.get<InvoiceCounterDoc>(INVOICE_COUNTERS, tenantId, COUNTER_ID);
  const last = counter?.last ?? 0;
  const doc: InvoiceCounterDoc = {
    id: COUNTER_ID,
    tenantId,
    version: (counter?.version ?? 0) + 1,
    last: last + 1,
    updatedAt: nowIso(),
  };
  const op = upsertOp(INVOICE_COUNTERS, doc, counter);
  return { number: formatInvoiceNumber(last + 1), op };
}
