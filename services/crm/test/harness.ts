// Opens the crm domain on a fresh embedded store and builds request contexts the way the gateway
// does, so the tests call exactly what the gRPC binding will call.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedStore, type DocumentStore } from '@fieldops/kit/store';
import { openCrmDomain, type CrmHandlers } from '../src/index.ts';
import { TENANT_A, TENANT_B, testContext as ctx, outboxEvents, refusal } from '@fieldops/kit/testing';

export { TENANT_A, TENANT_B, ctx, outboxEvents, refusal };

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
