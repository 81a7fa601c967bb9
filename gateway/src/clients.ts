// The gateway's only way to reach the services: one gRPC client each (ARCHITECTURE §2).
import { audit, crm } from '@fieldops/proto';
import { connectClient } from '@fieldops/kit/grpc/client';

export interface ServiceAddresses {
  crm: string;
  audit: string;
}

export interface ServiceClients {
  crm: crm.CrmServiceClient;
  audit: audit.AuditServiceClient;
  close(): void;
}

export function connectServiceClients(addresses: ServiceAddresses): ServiceClients {
  const clients = {
    crm: connectClient(crm.CrmServiceClient, addresses.crm),
    audit: connectClient(audit.AuditServiceClient, addresses.audit),
  };
  return {
    ...clients,
    close: () => Object.values(clients).forEach((client) => client.close()),
  };
}
