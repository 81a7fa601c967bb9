// Opens the crm domain on a fresh embedded store and builds request contexts the way the gateway
// does, so the tests call exactly what the gRPC binding will call.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestContext } from '@fieldops/kit/context';
import type { DomainEvent } from '@fieldops/kit/events/envelope';
import { newId } from '@fieldops/kit/ids';
import { openEmbeddedStore } from '@fieldops/kit/store/embedded';
import type { DocumentStore } from '@fieldops/kit/store/port';
import { openCrmDomain } from '../src/index.js';
import type { CrmHandlers } from '../src/index.js';

export const TENANT_A = 'ten_alpha';
export const TENANT_B = 'ten_beta';

export interface TestCrm {
  store: DocumentStore;
  crm: CrmHandlers;
  close(): Promise<void>;
}

export async function openTestCrm(): Promise<TestCrm> {
  const dir = mkdtempSync(join(tmpdir(), 'crm-test-'));
  const store = await openEmbeddedStore({ dir, fsync: 'never' });
  const crm = await openCrmDomain({ store });
  return {
    store,
    crm,
    close: async () => {
      await store.close();
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

/** The domain events waiting in the outbox, oldest first. */
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
