// What every service's own tests need to call its domain functions the way the gRPC binding does:
// a request context for a tenant, the events a write left in the outbox, and the refusal a call
// answered, and a poll for background work. Imported only by tests (services/<name>/test/harness.ts); production code never does.
import type { RequestContext } from '../context.ts';
import type { DomainEvent } from '../events/envelope.ts';
import { newId } from '../ids.ts';
import type { DocumentStore } from '../store/port.ts';

/** The two tenants the service tests use to prove isolation. */
export const TENANT_A = 'ten_alpha';
export const TENANT_B = 'ten_beta';

/** A Manager token's context in `tenantId` (TENANT_A unless named); any field can be overridden. */
export function testContext(overrides: Partial<RequestContext> & { tenantId?: string } = {}): RequestContext {
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

/** Awaits `promise` and returns the AppError-like object it rejected with (fails if it resolved). */
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

/** Polls `check` until it returns a value other than undefined (work done in the background). */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
