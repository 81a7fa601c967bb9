// Which customer (and deal) a proposal or an invoice belongs to. A document names a customer, a
// deal, or both; a deal's customer is the document's customer, and naming a different one is a
// mistake the caller can fix, never silently resolved.
import { AppError, notFound } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import { DEALS } from '../collections.ts';
import type { DealDoc } from '../deals/deal.model.ts';
import { requireCustomer } from './recipient.ts';
import type { CustomerDoc } from '../customers/customer.model.ts';

export interface DocumentOwner {
  customer: CustomerDoc;
  deal?: DealDoc;
}

export async function resolveOwner(
  store: DocumentStore,
  tenantId: string,
  sent: { customerId?: string; dealId?: string },
): Promise<DocumentOwner> {
  if (!sent.customerId && !sent.dealId) {
    throw new AppError('field_required', 'Name the customer (customerId) or the deal (dealId) this is for.', {
      field: 'customerId',
    });
  }
  const deal = sent.dealId ? await store.get<DealDoc>(DEALS, tenantId, sent.dealId) : undefined;
  if (sent.dealId && !deal) throw notFound('deal', sent.dealId);
  if (deal && sent.customerId && deal.customerId !== sent.customerId) {
    throw new AppError(
      'field_invalid',
      `Deal ${deal.id} belongs to customer ${deal.customerId}, not ${sent.customerId}; send the deal alone, or the deal's own customer.`,
      { field: 'customerId' },
    );
  }
  const customer = await requireCustomer(store, tenantId, deal?.customerId ?? (sent.customerId as string));
  return { customer, deal: deal ?? undefined };
}
