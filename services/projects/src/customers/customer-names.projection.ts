// Keeps each project's customerName equal to crm's canonical name after the customer is renamed.
// projects never reads crm's collections: it follows crm's customer.updated events (ARCHITECTURE
// §2, "a projection fed by events"). Delivery is at least once and per tenant in order, but a
// record can come again later (a replayed dead letter, an outbox republished after an upgrade):
// every event carries the customer's version (its etag), and a rename not newer than the version a
// project's name came from, or than the newest one applied for that customer, changes nothing.
// The rename itself is the audited write; the projection emits no event of its own.
import {
  topicOf,
  followFromStart,
  type DomainEvent,
  type EventLog,
  type EventRecord,
  type Subscription,
} from '@fieldops/kit/events';
import { nowIso } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import type { Doc } from '@fieldops/kit/store';
import { CUSTOMER_NAME_MARKS, PROJECTS } from '../collections.ts';
import type { ProjectDoc } from '../projects/project.model.ts';

export const CUSTOMER_NAMES_GROUP = 'projects.customer-names';
const CRM_TOPIC = topicOf('crm');

export async function startCustomerNameProjection(
  log: EventLog,
  store: DocumentStore,
): Promise<Subscription> {
  // A rename made before this group first ran must still reach the projects created earlier.
  return followFromStart(log, {
    group: CUSTOMER_NAMES_GROUP,
    topics: [CRM_TOPIC],
    handle: (record) => applyRename(store, record),
  });
}

export interface Rename {
  tenantId: string;
  customerId: string;
  name: string;
  /** The customer's version in crm after the change (its etag's `v<n>`). */
  version: number;
}

/** The rename an event carries, if it is a customer.updated with a name and an etag. */
export function renameOf(value: unknown): Rename | undefined {
  const event = value as Partial<DomainEvent> | null;
  if (event?.type !== 'customer.updated' || typeof event.tenantId !== 'string') return undefined;
  const customer = event.data?.['customer'] as { id?: unknown; name?: unknown; etag?: unknown } | undefined;
  if (typeof customer?.id !== 'string' || typeof customer.name !== 'string' || !customer.name)
    return undefined;
  const version = typeof customer.etag === 'string' ? versionOfEtag(customer.etag) : 0;
  return { tenantId: event.tenantId, customerId: customer.id, name: customer.name, version };
}

/** `<id>:v<n>` → n; 0 for anything else (kit/domain/etag.ts writes them). */
export function versionOfEtag(etag: string): number {
  const match = /:v(\d+)$/.exec(etag);
  return match ? Number(match[1]) : 0;
}

/** The newest customer version applied, kept per customer so a late older event is a no-op. */
interface MarkDoc extends Doc {
  customerVersion: number;
}

export async function applyRename(store: DocumentStore, record: EventRecord): Promise<void> {
  const rename = renameOf(record.value);
  if (!rename) return;
  const mark = await store.get<MarkDoc>(CUSTOMER_NAME_MARKS, rename.tenantId, rename.customerId);
  if (mark && rename.version <= mark.customerVersion) return;
  const projects = await store.find<ProjectDoc>(PROJECTS, rename.tenantId, { customerId: rename.customerId });
  const now = nowIso();
  const renames = projects
    .filter((doc) => doc.customerName !== rename.name && rename.version > (doc.customerVersion ?? 0))
    .map((doc) => ({
      op: 'replace' as const,
      collection: PROJECTS,
      doc: {
        ...doc,
        customerName: rename.name,
        customerVersion: rename.version,
        updatedAt: now,
        version: doc.version + 1,
      },
      expectedVersion: doc.version,
    }));
  const next: MarkDoc = {
    id: rename.customerId,
    tenantId: rename.tenantId,
    version: (mark?.version ?? 0) + 1,
    customerVersion: rename.version,
  };
  // One commit with the mark: a version clash (a PATCH in between) throws, and the log retries it
  // all (a conflict is retryable, kit/events/failure-class.ts).
  await store.commit(rename.tenantId, [
    ...renames,
    mark
      ? { op: 'replace', collection: CUSTOMER_NAME_MARKS, doc: next, expectedVersion: mark.version }
      : { op: 'insert', collection: CUSTOMER_NAME_MARKS, doc: next },
  ]);
}
