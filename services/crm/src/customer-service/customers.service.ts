import type { RequestContext } from '@fieldops/kit';
import type { DocumentStore, Filter } from '@fieldops/kit/store';
import { requireTenantId, writeRpcOf } from '@fieldops/kit/write';
import { crm } from '@fieldops/proto';
import { CUSTOMERS } from '../collections.ts';
import { cleanText, itemJson, listRpcOf, NEWEST_FIRST, getOrNotFound } from '@fieldops/kit/domain';
import { listActivity } from '../customers/activity.ts';
import { planCreateCustomer } from '../customers/customer-create.plan.ts';
import { CUSTOMER_STAGE_MACHINE } from '@fieldops/contracts';
import { planUpdateCustomer } from '../customers/customer-update.plan.ts';
import { toCustomerView, type CustomerDoc } from '../customers/customer.model.ts';
import { customerRelations } from './related-records.ts';

/** A customer in items_json; one function for the process, so the store remembers its renderings. */
const CUSTOMER_JSON = itemJson(toCustomerView, crm.Customer);

/** Fields q searches (spec: free text over name, email, company across the tenant). */
const CUSTOMER_SEARCH_FIELDS = ['name', 'email', 'company'] as const;

function customerFilter(req: crm.ListCustomersRequest): Filter {
  const filter: Filter = {};
  if (req.stage) filter['stage'] = req.stage;
  const q = cleanText(req.q);
  if (q) filter.$or = CUSTOMER_SEARCH_FIELDS.map((field) => ({ [field]: { $contains: q } }));
  return filter;
}

/** Newest first; keyset paging (the store breaks createdAt ties by id). */
export const listCustomers = listRpcOf(
  CUSTOMERS,
  { filter: customerFilter, sort: NEWEST_FIRST },
  toCustomerView,
  CUSTOMER_JSON,
);

export async function getCustomer(
  store: DocumentStore,
  req: crm.GetCustomerRequest,
  ctx: RequestContext,
): Promise<crm.CustomerDetail> {
  const tenantId = requireTenantId(ctx);
  const doc = await getOrNotFound<CustomerDoc>(store, CUSTOMERS, tenantId, req.id, 'customer');
  const [activity, relations] = await Promise.all([
    listActivity(store, tenantId, doc.id),
    customerRelations(store, tenantId, doc.id, ctx.tenant?.currency ?? ''),
  ]);
  return {
    customer: toCustomerView(doc),
    activity,
    ...relations,
    nextStages: CUSTOMER_STAGE_MACHINE.next(doc.stage),
  };
}

/** Its plan reads no state (lead conversion plans a customer the same way), so it takes no store. */
export const createCustomer = writeRpcOf(
  'createCustomer',
  'customer',
  async (_store: DocumentStore, tenantId: string, req: crm.CreateCustomerRequest, ctx: RequestContext) =>
    planCreateCustomer(tenantId, req, ctx),
);

export const updateCustomer = writeRpcOf('updateCustomer', 'customer', planUpdateCustomer);
