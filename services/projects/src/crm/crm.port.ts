// What the projects service asks of crm: the customer's canonical name, and the deal a new
// project opens. Domain code depends on this port; the platform plugs in the gRPC adapter
// (crm.grpc.ts), so projects never reads crm's collections (ARCHITECTURE §2).
import type { RequestContext } from '@fieldops/kit';
import type { projects } from '@fieldops/proto';

export interface CrmPort {
  /** The customer's name as crm holds it; rejects with not_found when the tenant has no such customer. */
  customerName(customerId: string, ctx: RequestContext): Promise<string>;
  /**
   * The name with the customer's version in crm (its etag's `v<n>`), so a rename event older than
   * what a project was created from changes nothing (customer-names.projection.ts).
   */
  customerNameAt(customerId: string, ctx: RequestContext): Promise<{ name: string; version: number }>;
  /**
   * Opens a deal for the customer. With an idempotency key in ctx the deal is opened once: a
   * retried project create gets the same deal back.
   */
  openDeal(customerId: string, ctx: RequestContext): Promise<projects.LinkedDeal>;
  /** A page of the tenant's customers, newest first (client pages list one per customer). */
  listCustomers(page: { cursor: string; limit: number }, ctx: RequestContext): Promise<CustomerPage>;
}

export interface CustomerPage {
  items: { id: string; name: string }[];
  /** '' on the last page. */
  nextCursor: string;
}
