// The crm domain with the billing handlers and the deal pipeline on one fresh embedded store, for
// the proposal and invoice tests: the same functions the gRPC bindings call.
import type { RequestContext } from '@fieldops/kit';
import { PLATFORM_TENANT } from '@fieldops/kit/store';
import { openBillingHandlers, type BillingHandlers } from '../src/billing-services.ts';
import { createDealHandlers, type DealHandlers } from '../src/index.ts';
import { ctx, openTestCrm, type TestCrm } from './harness.ts';

export interface TestBilling extends TestCrm {
  billing: BillingHandlers;
  deals: DealHandlers;
  customerId: string;
  /** The link token carried by the newest email about a proposal or invoice. */
  linkOf(aboutId: string): Promise<string>;
}

export async function openTestBilling(): Promise<TestBilling> {
  const crm = await openTestCrm();
  const billing = await openBillingHandlers(crm.store);
  const customer = await crm.crm.createCustomer({ name: 'Dana Roofs', email: 'dana@roofs.example' }, ctx());
  return {
    ...crm,
    billing,
    deals: createDealHandlers(crm.store),
    customerId: customer.customer?.id ?? '',
    linkOf: async (aboutId) => {
      const page = await billing.mailOutbox.listOutboundMessages({ aboutId }, ctx());
      const token = new URL(`http://x${page.items[0]?.linkPath ?? ''}`).searchParams.get('token');
      if (!token) throw new Error(`no link was emailed about ${aboutId}`);
      return token;
    },
  };
}

/** The context a client page sends before the link names the tenant. */
export const linkCtx = (): RequestContext => ctx({ tenantId: PLATFORM_TENANT, principal: undefined });

/** The platform's own side (the payment provider's callback). */
export const systemCtx = (overrides: Partial<RequestContext> = {}): RequestContext =>
  ctx({ principal: { kind: 'system', tokenId: '', role: '', memberId: '' }, ...overrides });

export const LINES = [
  { description: 'Roof survey flight', quantity: 1, unitPriceCents: 45000, taxRateBps: 2000 },
  { description: 'Orthomosaic processing', quantity: 2.5, unitPriceCents: 1999 },
];
/** 45000 + 9000 tax, and 2.5 × 1999 = 4997.5 rounded half up once to 4998. */
export const TOTAL = 58998;
