import { type RequestContext, AppError } from '@fieldops/kit';
import { callUnary, connectClient, type ConnectOptions } from '@fieldops/kit/grpc';
import { crm, deals } from '@fieldops/proto';
import { versionOfEtag } from './customer-names.projection.ts';
import type { CrmPort } from '../crm/crm.port.ts';

export interface GrpcCrm extends CrmPort {
  close(): void;
}

/**
 * The deal's own idempotency key, derived from the project's: crm keeps keys per tenant, so the
 * caller's key must not collide with a write the caller made directly on crm.
 */
export const dealKeyOf = (projectKey: string): string => (projectKey ? `${projectKey}#project-deal` : '');

export function connectGrpcCrm(address: string, options: ConnectOptions = {}): GrpcCrm {
  const customers = connectClient(crm.CrmServiceClient, address, options);
  const pipeline = connectClient(deals.DealServiceClient, address, options);
  return {
    async customerName(customerId, ctx) {
      const detail = await callUnary(customers, 'getCustomer', { id: customerId }, ctx);
      return detail.customer?.name ?? missingCustomer(customerId);
    },
    async customerNameAt(customerId, ctx) {
      const detail = await callUnary(customers, 'getCustomer', { id: customerId }, ctx);
      const customer = detail.customer ?? missingCustomer(customerId);
      return { name: customer.name, version: versionOfEtag(customer.etag) };
    },
    async openDeal(customerId, ctx: RequestContext) {
      const dealCtx = { ...ctx, idempotencyKey: dealKeyOf(ctx.idempotencyKey) };
      const write = await callUnary(pipeline, 'createDeal', { customerId }, dealCtx);
      const deal = write.deal;
      if (!deal) throw new AppError('internal', 'crm answered a deal create without the deal.');
      return { id: deal.id, stage: deal.stage, value: deal.value };
    },
    async listCustomers(page, ctx) {
      const found = await callUnary(customers, 'listCustomers', { page }, ctx);
      return {
        items: found.items.map((customer) => ({ id: customer.id, name: customer.name })),
        nextCursor: found.nextCursor,
      };
    },
    close() {
      customers.close();
      pipeline.close();
    },
  };
}

function missingCustomer(customerId: string): never {
  throw new AppError('not_found', `No customer with id ${customerId} exists in this tenant.`);
}
