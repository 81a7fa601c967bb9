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
  /** True when every service's channel connects within a moment (readiness for /healthz). */
  ready(): Promise<boolean>;
  close(): void;
}

const READY_WAIT_MS = 500;

function channelReady(client: { waitForReady(deadline: Date, callback: (error?: Error) => void): void }) {
  return new Promise<boolean>((resolve) =>
    client.waitForReady(new Date(Date.now() + READY_WAIT_MS), (error) => resolve(!error)),
  );
}

export function connectServiceClients(addresses: ServiceAddresses): ServiceClients {
  const clients = {
    crm: connectClient(crm.CrmServiceClient, addresses.crm),
    audit: connectClient(audit.AuditServiceClient, addresses.audit),
  };
  return {
    ...clients,
    ready: async () => (await Promise.all(Object.values(clients).map(channelReady))).every(Boolean),
    close: () => Object.values(clients).forEach((client) => client.close()),
  };
}
