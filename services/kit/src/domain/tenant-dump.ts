// The TenantDumpService every record-owning service serves beside its own RPCs: the exports
// packager lists the service's collections and pages through each one for the calling tenant, so
// an export reads each service's records from the service that owns them (never its store).
// The idempotency records are bookkeeping of the write path, not the tenant's data: left out.
import type { tenantExports } from '@fieldops/proto';
import { tenantExports as tenantExportsProto } from '@fieldops/proto';
import type { RequestContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { bindDomain, handlersOf, type DomainHandlers } from '../grpc/domain-binding.ts';
import type { GrpcServiceBinding } from '../grpc/server.ts';
import { readPage } from './paging.ts';
import type { CollectionSpec, DocumentStore } from '../store/port.ts';
import { IDEMPOTENCY_COLLECTION } from '../write/idempotency-record.ts';
import { requireTenantId } from '../write/tenant.ts';

export type TenantDumpHandlers = DomainHandlers<tenantExports.TenantDumpServiceService>;

export const DUMP_DEFAULT_LIMIT = 200;
export const DUMP_MAX_LIMIT = 1000;

/** The collections a dump covers: the declared ones, once each, without write bookkeeping. */
export function dumpableCollections(specs: readonly CollectionSpec[]): string[] {
  const names = specs.map((spec) => spec.name).filter((name) => name !== IDEMPOTENCY_COLLECTION);
  return [...new Set(names)].sort();
}

function dumpLimit(limit: number): number {
  if (!limit) return DUMP_DEFAULT_LIMIT;
  return Math.min(Math.max(Math.floor(limit), 1), DUMP_MAX_LIMIT);
}

/** What the two RPCs read: the serving service's name, its store and the collections it dumps. */
interface DumpDeps {
  service: string;
  store: DocumentStore;
  names: string[];
}

export async function listCollections({ service, names }: DumpDeps): Promise<tenantExports.CollectionList> {
  return { service, names };
}

export async function dumpCollection(
  { service, store, names }: DumpDeps,
  req: tenantExports.DumpCollectionRequest,
  ctx: RequestContext,
): Promise<tenantExports.DumpPage> {
  const tenantId = requireTenantId(ctx);
  if (!names.includes(req.collection)) {
    throw new AppError(
      'not_found',
      `${service} has no collection "${req.collection}"; ListCollections names the ones it has.`,
    );
  }
  // By id: a stable order that later inserts cannot shuffle while the packager pages.
  const page = await readPage(() =>
    store.page(req.collection, tenantId, {
      sort: { field: 'id', direction: 'asc' },
      limit: dumpLimit(req.limit),
      ...(req.cursor ? { cursor: req.cursor } : {}),
    }),
  );
  return {
    documentsJson: page.items.map((doc) => JSON.stringify(doc)),
    nextCursor: page.nextCursor ?? '',
  };
}

/** Derived like every service's map (handlersOf): each RPC is the function of its name above. */
export function createTenantDumpHandlers(
  service: string,
  store: DocumentStore,
  specs: readonly CollectionSpec[],
): TenantDumpHandlers {
  const deps: DumpDeps = { service, store, names: dumpableCollections(specs) };
  return handlersOf(tenantExportsProto.TenantDumpServiceService, deps, { listCollections, dumpCollection });
}

/** The binding a service adds to its gRPC server's list. */
export function tenantDumpBinding(
  service: string,
  store: DocumentStore,
  specs: readonly CollectionSpec[],
): GrpcServiceBinding {
  return bindDomain(
    tenantExportsProto.TenantDumpServiceService,
    createTenantDumpHandlers(service, store, specs),
  );
}
