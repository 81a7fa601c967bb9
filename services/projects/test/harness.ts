// Opens the projects domain on a fresh embedded store, with a real crm (its own store and gRPC
// server) reached through the same gRPC adapter the platform uses, and builds request contexts
// the way the gateway does.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCrmHandlers } from '@fieldops/crm';
import { startCrmServer } from '@fieldops/crm/server';
import type { RequestContext } from '@fieldops/kit/context';
import type { DomainEvent } from '@fieldops/kit/events/envelope';
import { newId } from '@fieldops/kit/ids';
import { createLogger } from '@fieldops/kit/log';
import { openEmbeddedStore } from '@fieldops/kit/store/embedded';
import type { DocumentStore } from '@fieldops/kit/store/port';
import { connectGrpcCrm, type GrpcCrm } from '../src/crm/crm.grpc.js';
import { createRecordHandlers, openProjectsDomain } from '../src/index.js';
import type { ProjectHandlers, RecordHandlers } from '../src/index.js';

export const TENANT_A = 'ten_alpha';
export const TENANT_B = 'ten_beta';

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

export function ctx(overrides: Partial<RequestContext> & { tenantId?: string } = {}): RequestContext {
  const { tenantId = TENANT_A, ...rest } = overrides;
  return {
    requestId: newId('req'),
    tenant: { id: tenantId, currency: 'EUR', defaultVertical: 'roofing' },
    principal: { kind: 'token', tokenId: 'tok_test', role: 'Manager', memberId: 'mem_ana' },
    idempotencyKey: '',
    agent: { runId: 'run_1', task: 'test', model: '', confirmedBy: '' },
    dryRun: false,
    operation: 'test',
    ...rest,
  };
}

/** The domain events waiting in a store's outbox, oldest first. */
export async function outboxEvents(store: DocumentStore): Promise<DomainEvent[]> {
  const records = await store.pendingOutbox(1000);
  return records.map((record) => record.value as DomainEvent);
}

/** Runs `promise` and returns the AppError-like object it rejected with. */
export async function refusal(
  promise: Promise<unknown>,
): Promise<{ code: string; message: string; extras: Record<string, unknown> }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; message: string; extras: Record<string, unknown> };
  }
  throw new Error('expected the call to be refused');
}
