// A customer as stored, and as the API shows it.
import type { DocumentStore, Doc } from '@fieldops/kit/store';
import type { crm } from '@fieldops/proto';
import { CUSTOMERS } from '../collections.ts';
import { etagOf, type Complete } from '@fieldops/kit/domain';
import type { CustomerStage } from '@fieldops/contracts';

export interface CustomerDoc extends Doc {
  name: string;
  email?: string;
  /** The normalized email, so a captured lead can be matched to an existing customer. */
  emailKey?: string;
  phone?: string;
  company?: string;
  source?: string;
  ownerId?: string;
  stage: CustomerStage;
  createdAt: string;
  updatedAt: string;
  opId?: string;
}

/** Fields whose changes are reported (activity trail, rehearsal effects, events). */
export const CUSTOMER_CHANGE_FIELDS = [
  'name',
  'email',
  'phone',
  'company',
  'source',
  'ownerId',
  'stage',
] as const satisfies readonly (keyof CustomerDoc & string)[];

export function toCustomerView(doc: CustomerDoc): crm.Customer {
  return {
    id: doc.id,
    name: doc.name,
    email: doc.email,
    phone: doc.phone,
    company: doc.company,
    source: doc.source,
    ownerId: doc.ownerId,
    stage: doc.stage,
    etag: etagOf(doc),
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    opId: doc.opId,
  } satisfies Complete<crm.Customer>;
}

/**
 * The customer a lead with this email is flagged against: the oldest one with that email, so the
 * flag is stable when several customers share an address. Flagged only, never merged.
 */
export async function findCustomerMatch(
  store: DocumentStore,
  tenantId: string,
  emailKey: string,
): Promise<crm.CustomerMatch | undefined> {
  const [customer] = await store.find<CustomerDoc>(
    CUSTOMERS,
    tenantId,
    { emailKey },
    { sort: { field: 'createdAt', direction: 'asc' }, limit: 1 },
  );
  return customer ? { customerId: customer.id, matchedOn: 'email' } : undefined;
}
