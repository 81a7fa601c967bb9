// The document store port. Each service owns one store (its own collections); every call takes
// the tenant id, so tenant isolation is in the signature. Adapters: embedded (this repo's
// default, persisted under FIELDOPS_DATA_DIR) and MongoDB (production). One contract suite
// (test/store.contract.ts) runs against every adapter.

/** Every stored document. `version` starts at 1 and grows by one per replace (optimistic concurrency). */
export interface Doc {
  id: string;
  tenantId: string;
  version: number;
  [field: string]: unknown;
}

export type Scalar = string | number | boolean | null;

/** A condition on one field; a bare scalar means equality. `$contains` is a case-insensitive substring. */
export type Condition =
  | Scalar
  | {
      $eq?: Scalar;
      $ne?: Scalar;
      $in?: Scalar[];
      $nin?: Scalar[];
      $gt?: string | number;
      $gte?: string | number;
      $lt?: string | number;
      $lte?: string | number;
      $exists?: boolean;
      $contains?: string;
    };

/** Conditions on fields (dot paths reach into nested objects) are ANDed; `$or` takes alternatives. */
export interface Filter {
  $or?: Filter[];
  [field: string]: Condition | Filter[] | undefined;
}

export interface CollectionSpec {
  name: string;
  /**
   * Unique keys within a tenant. A document whose value for any field of a key is missing or
   * null is not indexed by that key (a sparse / partial index), which is how "one open lead per
   * email" is expressed: the field is only set while the lead is open.
   */
  unique?: string[][];
  /** Field lists that queries filter or sort by; real adapters build indexes from them. */
  indexes?: string[][];
}

export interface Sort {
  field: string;
  direction: 'asc' | 'desc';
}

/** The order of find() without a sort, the same on every adapter. */
export const FIND_ORDER: Sort = { field: 'id', direction: 'asc' };

export interface PageQuery {
  filter?: Filter;
  /** Ties are always broken by id in the same direction, so pages never skip or repeat. */
  sort: Sort;
  limit: number;
  /** Opaque, from a previous page's nextCursor. */
  cursor?: string;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** An event stored in the same commit as the change it describes (the transactional outbox). */
export interface OutboxEvent {
  id: string;
  tenantId: string;
  topic: string;
  /** Partition key on the event log; ordering is kept per key. */
  key: string;
  value: unknown;
}

export type WriteOp =
  | { op: 'insert'; collection: string; doc: Doc }
  /** Replaces the whole document; fails unless the stored version equals expectedVersion. */
  | { op: 'replace'; collection: string; doc: Doc; expectedVersion: number }
  | { op: 'delete'; collection: string; id: string; expectedVersion?: number }
  | { op: 'emit'; event: OutboxEvent };

/** Thrown by commit when a unique key is taken or a version check fails; nothing was written. */
export class StoreConflict extends Error {
  readonly reason: 'unique' | 'version' | 'missing';
  readonly collection: string;
  readonly detail: string;
  constructor(reason: 'unique' | 'version' | 'missing', collection: string, detail: string) {
    super(`${reason} conflict in ${collection}: ${detail}`);
    this.reason = reason;
    this.collection = collection;
    this.detail = detail;
    this.name = 'StoreConflict';
  }
}

export interface OutboxRecord extends OutboxEvent {
  /**
   * Position among the events of its tenant (the ordering key: a DomainEvent's log key is its
   * tenant), 1, 2, 3… in commit order. There is no order across tenants, so commits of two
   * tenants never contend on a shared counter (docs/decisions.md).
   */
  seq: number;
}

/** Names one outbox record: its tenant and its seq within that tenant. */
export type OutboxPosition = Pick<OutboxRecord, 'tenantId' | 'seq'>;

/** A lease held: its generation, the fencing token publishes are checked against. */
export interface LeaseGrant {
  generation: number;
}

/** What DocumentStore.markPublished checks before marking: the lease is still this holder's. */
export interface LeaseFence {
  name: string;
  owner: string;
  generation: number;
}

/** The lease named in a fence changed hands (or generation): the holder's work is refused. */
export class LeaseLost extends Error {
  readonly fence: LeaseFence;
  constructor(fence: LeaseFence) {
    super(`the lease ${fence.name} is no longer held by ${fence.owner} in generation ${fence.generation}`);
    this.fence = fence;
    this.name = 'LeaseLost';
  }
}

/** DocumentStore.pageJson. */
export type PageJson = <T extends Doc>(
  collection: string,
  tenantId: string,
  query: PageQuery,
  render: (doc: T) => string,
) => Promise<Page<string>>;

export interface DocumentStore {
  /** Declares a collection (idempotent). Must be called before the collection is used. */
  define(spec: CollectionSpec): Promise<void>;
  get<T extends Doc>(collection: string, tenantId: string, id: string): Promise<T | null>;
  findOne<T extends Doc>(collection: string, tenantId: string, filter: Filter): Promise<T | null>;
  /** Matching documents in `sort` order, by id (FIND_ORDER) when none is given. */
  find<T extends Doc>(
    collection: string,
    tenantId: string,
    filter: Filter,
    options?: { sort?: Sort; limit?: number },
  ): Promise<T[]>;
  page<T extends Doc>(collection: string, tenantId: string, query: PageQuery): Promise<Page<T>>;
  /**
   * The same page, each item the JSON text `render` makes of the document. `render` must be a
   * pure function of the document and must not modify it: the embedded adapter hands it the
   * stored document itself (no copy) and remembers its answer for as long as it holds that
   * version of the document, so an unchanged record is rendered once, not once per read.
   */
  pageJson: PageJson;
  count(collection: string, tenantId: string, filter: Filter): Promise<number>;
  /**
   * Applies every op or none (one transaction). Every doc and event must belong to tenantId.
   * Throws StoreConflict on a taken unique key, a stale version or a missing document.
   */
  commit(tenantId: string, ops: WriteOp[]): Promise<void>;
  /**
   * Outbox events not yet marked published (for the relay only), each tenant's in seq order, and
   * each tenant's earliest before any later one: a batch holding a tenant's event holds every
   * earlier pending event of that tenant. How tenants interleave is the adapter's choice.
   */
  pendingOutbox(limit: number): Promise<OutboxRecord[]>;
  /**
   * Marks records published, each named by (tenantId, seq). With a fence, only while that lease
   * is still held by its owner in the same generation, atomically with the marking; otherwise
   * nothing is marked and it throws LeaseLost (a relay that lost its lease must not mark).
   */
  markPublished(records: OutboxPosition[], fence?: LeaseFence): Promise<void>;
  /**
   * Takes or renews the lease `name` for `owner` for `ttlMs`: its grant when `owner` holds it now,
   * null while another owner's lease runs. One relay per store publishes (outbox/relay.ts). The
   * grant's generation (a fencing token) grows each time the lease is taken anew (never on a
   * renewal), so work done under an older generation can be refused.
   */
  acquireLease(name: string, owner: string, ttlMs: number): Promise<LeaseGrant | null>;
  /** Gives the lease up if `owner` holds it, so another can take it at once. */
  releaseLease(name: string, owner: string): Promise<void>;
  /** Called after a commit that emitted events, so the relay need not poll tightly. */
  onOutbox(listener: () => void): () => void;
  /**
   * Whether the store answers now: readiness (/readyz's `store:<service>`). Bounded and cached by
   * the health registry, so it may simply ask the server.
   */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** Tenant id used for platform-level records that exist before a tenant is known (tokens, sessions). */
export const PLATFORM_TENANT = '_platform';
