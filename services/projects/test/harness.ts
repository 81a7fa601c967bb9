// Opens the projects domain on a fresh embedded store, with a real crm (its own store and gRPC
// server) reached through the same gRPC adapter the platform uses, and builds request contexts
// the way the gateway does.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCrmHandlers } from '@fieldops/crm';
import { startCrmServer } from '@fieldops/crm/start';
import { createLogger } from '@fieldops/kit';
import { openEmbeddedStore, type DocumentStore } from '@fieldops/kit/store';
import { connectGrpcCrm, type GrpcCrm } from '../src/customers/crm.grpc.ts';
import {
  createRecordHandlers,
  openProjectsDomain,
  type ProjectHandlers,
  type RecordHandlers,
} from '../src/index.ts';
import { TENANT_A, TENANT_B, testContext as ctx, outboxEvents, refusal } from '@fieldops/kit/testing';

export { TENANT_A, TENANT_B, ctx, outboxEvents, refusal };

export interface TestProjects {
  store: DocumentStore;
  crmStore: DocumentStore;
  crm: GrpcCrm;
  projects: ProjectHandlers;
  records: RecordHandlers;
  /** A customer in crm, for projects to be created for. */
  customer(name?: string, tenantId?: string): Promise<string>;
  close(): Promise<void>;
}

export async function openTestProjects(): Promise<TestProjects> {
  const dir = mkdtempSync(join(tmpdir(), 'projects-test-'));
  const store = await openEmbeddedStore({ dir: join(dir, 'projects'), fsync: 'never' });
  const crmStore = await openEmbeddedStore({ dir: join(dir, 'crm'), fsync: 'never' });
  const crmServer = await startCrmServer({ store: crmStore, logger: createLogger('crm', 'silent') });
  const crm = connectGrpcCrm(crmServer.address);
  const projects = await openProjectsDomain({ store, crm });
  return {
    store,
    crmStore,
    crm,
    projects,
    records: createRecordHandlers(store),
    customer: async (name = 'Acme Quarry', tenantId = TENANT_A) => {
      const created = await createCrmHandlers(crmStore).createCustomer({ name }, ctx({ tenantId }));
      return created.customer?.id ?? '';
    },
    close: async () => {
      crm.close();
      await crmServer.stop();
      await Promise.all([store.close(), crmStore.close()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
