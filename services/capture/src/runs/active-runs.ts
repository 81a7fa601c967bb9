// The runs a worker may have to pick up, in the platform namespace of capture's store: leases live
// on each run in its tenant, and a store query always names one tenant, so this short list is how
// a worker finds runs whose worker died. An entry is added when a run's job event is consumed and
// removed once the run is done; both are idempotent.
import { PLATFORM_TENANT, StoreConflict, type Doc, type DocumentStore } from '@fieldops/kit/store';
import { nowIso } from '@fieldops/kit';
import { ACTIVE_RUNS } from '../collections.ts';

export interface ActiveRunDoc extends Doc {
  runTenantId: string;
  queuedAt: string;
}

export async function registerActiveRun(
  store: DocumentStore,
  tenantId: string,
  runId: string,
): Promise<void> {
  const doc: ActiveRunDoc = {
    id: runId,
    tenantId: PLATFORM_TENANT,
    version: 1,
    runTenantId: tenantId,
    queuedAt: nowIso(),
  };
  try {
    await store.commit(PLATFORM_TENANT, [{ op: 'insert', collection: ACTIVE_RUNS, doc }]);
  } catch (error) {
    if (!(error instanceof StoreConflict)) throw error;
  }
}

export async function forgetActiveRun(store: DocumentStore, runId: string): Promise<void> {
  try {
    await store.commit(PLATFORM_TENANT, [{ op: 'delete', collection: ACTIVE_RUNS, id: runId }]);
  } catch (error) {
    if (!(error instanceof StoreConflict)) throw error;
  }
}

export const listActiveRuns = (store: DocumentStore, limit: number) =>
  store.find<ActiveRunDoc>(
    ACTIVE_RUNS,
    PLATFORM_TENANT,
    {},
    { sort: { field: 'queuedAt', direction: 'asc' }, limit },
  );
