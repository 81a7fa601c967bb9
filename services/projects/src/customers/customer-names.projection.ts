// Keeps each project's customerName equal to crm's canonical name after the customer is renamed.
// projects never reads crm's collections: it follows crm's customer.updated events (ARCHITECTURE
// §2, "a projection fed by events"). Delivery is at least once and per tenant in order; setting a
// name is idempotent, so a redelivery changes nothing. The rename itself is the audited write; the
// projection emits no event of its own.
import {
  topicOf,
  type DomainEvent,
  type EventLog,
  type EventRecord,
  type Subscription,
} from '@fieldops/kit/events';
import { nowIso } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import { PROJECTS } from '../collections.js';
import type { ProjectDoc } from '../projects/project.model.js';

export const CUSTOMER_NAMES_GROUP = 'projects.customer-names';
const CRM_TOPIC = topicOf('crm');

export async function startCustomerNameProjection(
  log: EventLog,
  store: DocumentStore,
): Promise<Subscription> {
  await log.ensureTopic(CRM_TOPIC);
  return log.subscribe({
    group: CUSTOMER_NAMES_GROUP,
    topics: [CRM_TOPIC],
    // A rename made before this group first ran must still reach the projects created earlier.
    fromBeginning: true,
    handle: (record) => applyRename(store, record),
  });
}

/** The rename an event carries, if it is a customer.updated with a name. */
export function renameOf(value: unknown): { tenantId: string; customerId: string; name: string } | undefined {
  const event = value as Partial<DomainEvent> | null;
  if (event?.type !== 'customer.updated' || typeof event.tenantId !== 'string') return undefined;
  const customer = event.data?.['customer'] as { id?: unknown; name?: unknown } | undefined;
  if (typeof customer?.id !== 'string' || typeof customer.name !== 'string' || !customer.name)
    return undefined;
  return { tenantId: event.tenantId, customerId: customer.id, name: customer.name };
}

export async function applyRename(store: DocumentStore, record: EventRecord): Promise<void> {
  const rename = renameOf(record.value);
  if (!rename) return;
  const stale = await store.find<ProjectDoc>(PROJECTS, rename.tenantId, {
    customerId: rename.customerId,
    customerName: { $ne: rename.name },
  });
  const now = nowIso();
  // One commit per project: a version clash (a PATCH in between) throws, and the log retries.
  for (const doc of stale) {
    const renamed: ProjectDoc = {
      ...doc,
      customerName: rename.name,
      updatedAt: now,
      version: doc.version + 1,
    };
    await store.commit(rename.tenantId, [
      { op: 'replace', collection: PROJECTS, doc: renamed, expectedVersion: doc.version },
    ]);
  }
}
