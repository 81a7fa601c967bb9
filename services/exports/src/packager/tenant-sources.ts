// Where the packager reads a tenant's records: each record-owning service's TenantDumpService,
// over gRPC, as the tenant (never the services' stores).
import { callUnary, connectClient } from '@fieldops/kit/grpc';
import type { RequestContext } from '@fieldops/kit';
import { tenantExports } from '@fieldops/proto';

export interface TenantSource {
  /** The service as the archive names it (tables/<service>/<collection>.ndjson). */
  service: string;
  client: tenantExports.TenantDumpServiceClient;
}

/** One client per service; `addresses` maps a service name to its gRPC host:port. */
export function connectTenantSources(addresses: Readonly<Record<string, string>>): TenantSource[] {
  return Object.entries(addresses).map(([service, address]) => ({
    service,
    client: connectClient(tenantExports.TenantDumpServiceClient, address),
  }));
}

export function closeTenantSources(sources: readonly TenantSource[]): void {
  for (const source of sources) source.client.close();
}

const DUMP_PAGE = 500;

/** Every document of one collection, one JSON line each, page by page. */
export async function* dumpLines(
  source: TenantSource,
  collection: string,
  ctx: RequestContext,
): AsyncGenerator<string> {
  let cursor = '';
  do {
    const page = await callUnary(
      source.client,
      'dumpCollection',
      { collection, cursor, limit: DUMP_PAGE },
      ctx,
    );
    for (const json of page.documentsJson) yield `${json}\n`;
    cursor = page.nextCursor;
  } while (cursor);
}

export async function collectionsOf(source: TenantSource, ctx: RequestContext): Promise<string[]> {
  return (await callUnary(source.client, 'listCollections', {}, ctx)).names;
}
