// The crm gRPC server: the CrmService RPCs over the store crm owns.
import { bindDomain, listenOf, startGrpcServer, type GrpcListen, type GrpcServer } from '@fieldops/kit/grpc';
import type { DocumentStore } from '@fieldops/kit/store';
import { crm, deals, bookings } from '@fieldops/proto';
import { createDealHandlers, createBookingHandlers } from './handlers.ts';
import { openCrmDomain } from './index.ts';
import { billingBindings } from './billing-services.ts';
import { tenantDumpBinding } from '@fieldops/kit/domain';
import { CRM_COLLECTIONS } from './collections.ts';

export async function startCrmServer(
  options: GrpcListen & {
    store: DocumentStore;
  },
): Promise<GrpcServer> {
  const handlers = await openCrmDomain({ store: options.store });
  return startGrpcServer({
    ...listenOf(options),
    services: [
      bindDomain(crm.CrmServiceService, handlers),
      bindDomain(deals.DealServiceService, createDealHandlers(options.store)),
      bindDomain(bookings.BookingServiceService, createBookingHandlers(options.store)),
      ...(await billingBindings(options.store)),
      tenantDumpBinding('crm', options.store, CRM_COLLECTIONS),
    ],
  });
}
