// The store-backed ledger: one hash chain per tenant. Each entry is committed together with the
// tenant's new head in one store commit, so the chain never forks and never has a gap: a
// concurrent append fails the head's version check (or the unique seq) and retries on the new head.
import { AppError, notFound, newId } from '@fieldops/kit';
import { projectOf, type DomainEvent } from '@fieldops/kit/events';
import { itemJson, jsonArray } from '@fieldops/kit/domain';
import {
  InvalidCursor,
  StoreConflict,
  type CollectionSpec,
  type Doc,
  type DocumentStore,
  type Filter,
  type WriteOp,
} from '@fieldops/kit/store';
import { audit } from '@fieldops/proto';
import {
  genesisHash,
  hashedFields,
  hashEntry,
  verifyChain,
  type AuditEntry,
  type ChainHead,
  type ChainVerification,
} from './chain.ts';

const ENTRIES = 'entries';
const HEADS = 'heads';
/** The ledger's collections (a tenant export dumps them: the trail and its chain head). */
export const LEDGER_COLLECTIONS = [{ name: ENTRIES }, { name: HEADS }] as const;

/** Lost races an append tolerates before it hands the event back to the log to redeliver later. */
const MAX_APPEND_ATTEMPTS = 100;
const PAGE_DEFAULT = 50;
const PAGE_MAX = 100;

/** Stored beside the hashed entry: the project it is about ('' for a tenant-level entry). */
type EntryDoc = Doc & AuditEntry & { projectId?: string };
type HeadDoc = Doc & ChainHead;

export interface ListQuery {
  cursor?: string;
  limit?: number;
  resourceId?: string;
  tokenId?: string;
  action?: string;
  runId?: string;
  /** A project-restricted reader's projects; undefined for an unrestricted one. */
  projectIds?: readonly string[];
  /** Answer with itemsJson (the JSON array of the entries as the wire shows them) instead of items. */
  asJson?: boolean;
}

/** An entry as shown: `redacted` is true only in a restricted reader's proof (see verify). */
export type ShownEntry = AuditEntry & { redacted: boolean };

export interface EntryList {
  items: ShownEntry[];
  nextCursor: string | null;
  itemsJson?: Buffer;
}

export interface AppendResult {
  entry: AuditEntry;
  /** False when the event was already recorded (a redelivery): nothing was written. */
  appended: boolean;
}

export interface LedgerVerification extends ChainVerification {
  /** With an entry id: the entries from that entry to the head, to recompute the head hash from. */
  proof: ShownEntry[];
}

export interface Ledger {
  append(event: DomainEvent): Promise<AppendResult>;
  /** Newest first. */
  list(tenantId: string, query: ListQuery): Promise<EntryList>;
  verify(tenantId: string, entryId?: string, projectIds?: readonly string[]): Promise<LedgerVerification>;
}

/** One head per tenant; the id carries the tenant because ids may be unique across tenants. */
const headId = (tenantId: string): string => `head_${tenantId}`;

/** The entry as the API shows it and as it was hashed: store bookkeeping stripped. */
function toEntry(entry: EntryDoc): AuditEntry {
  return { ...hashedFields(entry), hash: entry.hash };
}

const shown = (entry: AuditEntry): ShownEntry => ({ ...entry, redacted: false });

/** An entry in items_json (entries never change, so the store renders each one once). */
const ENTRY_JSON = itemJson((doc: EntryDoc): audit.Entry => shown(toEntry(doc)), audit.Entry);

/**
 * An entry a restricted reader may not see, as its proof shows it: position and links only, so the
 * chain can still be followed from the reader's entry to the head without disclosing anything.
 */
const redact = (entry: AuditEntry): ShownEntry => ({
  seq: entry.seq,
  prevHash: entry.prevHash,
  id: '',
  eventId: '',
  at: '',
  action: '',
  operation: '',
  resourceKind: '',
  resourceId: '',
  principalKind: '',
  tokenId: '',
  memberId: '',
  requestId: '',
  idempotencyKey: '',
  agent: { runId: '', task: '', model: '', confirmedBy: '' },
  hash: entry.hash,
  redacted: true,
});

/** Whether a reader restricted to `projectIds` (undefined: unrestricted) may see the entry. */
const visible = (projectId: string | undefined, projectIds: readonly string[] | undefined): boolean =>
  projectIds === undefined || (!!projectId && projectIds.includes(projectId));

/** Everything the trail records about a write comes from the event's context, copied by the emitter. */
function entryFor(event: DomainEvent, seq: number, prevHash: string): AuditEntry {
  const { context } = event;
  const entry: AuditEntry = {
    seq,
    id: newId('aud'),
    eventId: event.id,
    at: event.occurredAt,
    action: event.type,
    operation: context.operation,
    resourceKind: event.resource.kind,
    resourceId: event.resource.id,
    principalKind: context.principal.kind,
    tokenId: context.principal.tokenId,
    memberId: context.principal.memberId,
    requestId: context.requestId,
    idempotencyKey: context.idempotencyKey,
    agent: { ...context.agent },
    prevHash,
    hash: '',
  };
  return { ...entry, hash: hashEntry(entry, prevHash) };
}

function headOp(tenantId: string, head: HeadDoc | null, entry: AuditEntry): WriteOp {
  const next = { id: headId(tenantId), tenantId, seq: entry.seq, hash: entry.hash };
  if (!head) return { op: 'insert', collection: HEADS, doc: { ...next, version: 1 } };
  return {
    op: 'replace',
    collection: HEADS,
    doc: { ...next, version: head.version + 1 },
    expectedVersion: head.version,
  };
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Clamped to the spec's 1..100 (default 50); the gateway tells the caller when it clamped. */
function pageLimit(limit: number | undefined): number {
  if (!limit || !Number.isFinite(limit)) return PAGE_DEFAULT;
  return Math.min(PAGE_MAX, Math.max(1, Math.trunc(limit)));
}

function listFilter(query: ListQuery): Filter {
  const filter: Filter = {};
  if (query.resourceId) filter['resourceId'] = query.resourceId;
  if (query.tokenId) filter['tokenId'] = query.tokenId;
  if (query.action) filter['action'] = query.action;
  if (query.runId) filter['agent.runId'] = query.runId;
  // A restricted reader sees entries about its projects only, never tenant-level ones.
  if (query.projectIds) filter['projectId'] = { $in: [...query.projectIds] };
  return filter;
}

/** The audit store's collections and their indexes (what openLedger defines, the migration builds). */
export const AUDIT_COLLECTIONS: readonly CollectionSpec[] = [
  {
    name: ENTRIES,
    // eventId: a redelivered event can never add a second entry, even when two appends race.
    // seq: two appends computed from the same head cannot both land.
    unique: [['eventId'], ['seq']],
    indexes: [
      ['seq'],
      ['resourceId', 'seq'],
      ['tokenId', 'seq'],
      ['action', 'seq'],
      ['agent.runId', 'seq'],
      ['projectId', 'seq'],
    ],
  },
  { name: HEADS },
];

export async function openLedger(store: DocumentStore): Promise<Ledger> {
  for (const spec of AUDIT_COLLECTIONS) await store.define(spec);

  const recorded = async (tenantId: string, eventId: string): Promise<AuditEntry | null> => {
    const doc = await store.findOne<EntryDoc>(ENTRIES, tenantId, { eventId });
    return doc ? toEntry(doc) : null;
  };

  /** One attempt: null when another append moved the head first. */
  const tryAppend = async (event: DomainEvent): Promise<AppendResult | null> => {
    const existing = await recorded(event.tenantId, event.id);
    if (existing) return { entry: existing, appended: false };
    const head = await store.get<HeadDoc>(HEADS, event.tenantId, headId(event.tenantId));
    const entry = entryFor(event, (head?.seq ?? 0) + 1, head?.hash ?? genesisHash(event.tenantId));
    const projectId = projectOf(event) ?? '';
    const doc: EntryDoc = { ...entry, projectId, tenantId: event.tenantId, version: 1 };
    try {
      await store.commit(event.tenantId, [
        { op: 'insert', collection: ENTRIES, doc },
        headOp(event.tenantId, head, entry),
      ]);
      return { entry, appended: true };
    } catch (error) {
      if (error instanceof StoreConflict) return null;
      throw error;
    }
  };

  const append = async (event: DomainEvent): Promise<AppendResult> => {
    for (let attempt = 1; attempt <= MAX_APPEND_ATTEMPTS; attempt += 1) {
      const result = await tryAppend(event);
      if (result) return result;
      // Jitter spreads racing appenders out so one of them wins each round.
      await pause(Math.random() * Math.min(2 ** attempt, 25));
    }
    // Retryable: the consumer hands the event back to the log, which redelivers it later.
    throw new AppError(
      'conflict',
      `Audit append for tenant ${event.tenantId} lost ${MAX_APPEND_ATTEMPTS} races.`,
    );
  };

  const list = async (tenantId: string, query: ListQuery): Promise<EntryList> => {
    try {
      const read = {
        filter: listFilter(query),
        sort: { field: 'seq', direction: 'desc' } as const,
        limit: pageLimit(query.limit),
        ...(query.cursor ? { cursor: query.cursor } : {}),
      };
      if (query.asJson) {
        const page = await store.pageJson(ENTRIES, tenantId, read, ENTRY_JSON);
        return { items: [], nextCursor: page.nextCursor, itemsJson: jsonArray(page.items) };
      }
      const page = await store.page<EntryDoc>(ENTRIES, tenantId, read);
      return { items: page.items.map((doc) => shown(toEntry(doc))), nextCursor: page.nextCursor };
    } catch (error) {
      if (!(error instanceof InvalidCursor)) throw error;
      throw new AppError('field_invalid', 'cursor is not one this list issued; start again without it.', {
        field: 'cursor',
      });
    }
  };

  /**
   * Entries first, head second: every entry read was committed with a head at least as far, so an
   * honest ledger never shows entries past its head. Appends landing between the two reads are
   * fetched up to the head, so they are not mistaken for removed entries.
   */
  const readChain = async (tenantId: string): Promise<{ docs: EntryDoc[]; head: ChainHead | null }> => {
    const sort = { field: 'seq', direction: 'asc' } as const;
    const docs = await store.find<EntryDoc>(ENTRIES, tenantId, {}, { sort });
    const head = await store.get<HeadDoc>(HEADS, tenantId, headId(tenantId));
    const lastSeq = docs.at(-1)?.seq ?? 0;
    if (head && head.seq > lastSeq) {
      const tail = await store.find<EntryDoc>(
        ENTRIES,
        tenantId,
        { seq: { $gt: lastSeq, $lte: head.seq } },
        { sort },
      );
      docs.push(...tail);
    }
    return { docs, head: head ? { seq: head.seq, hash: head.hash } : null };
  };

  /**
   * A restricted reader (projectIds set) may ask for a proof of an entry about one of its projects
   * only (any other is not_found, as if it did not exist); the proof's other entries are redacted.
   */
  const verify = async (
    tenantId: string,
    entryId?: string,
    projectIds?: readonly string[],
  ): Promise<LedgerVerification> => {
    const from = entryId ? await store.get<EntryDoc>(ENTRIES, tenantId, entryId) : null;
    if (entryId && (!from || !visible(from.projectId, projectIds))) throw notFound('audit entry', entryId);
    const { docs, head } = await readChain(tenantId);
    const result = verifyChain(tenantId, docs.map(toEntry), head ?? undefined);
    const proof = from
      ? docs
          .filter((doc) => doc.seq >= from.seq)
          .map((doc) => (visible(doc.projectId, projectIds) ? shown(toEntry(doc)) : redact(toEntry(doc))))
      : [];
    return { ...result, proof };
  };

  return { append, list, verify };
}
