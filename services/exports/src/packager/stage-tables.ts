// Phase "tables": every record of the tenant, one NDJSON file per collection of each service,
// read from the owning service over gRPC.
import type { RequestContext } from '@fieldops/kit';
import { join } from 'node:path';
import { writeHashedFile } from './hashed-file.ts';
import { collectionsOf, dumpLines, type TenantSource } from './tenant-sources.ts';

export interface TableEntry {
  service: string;
  collection: string;
  /** Path inside the archive. */
  path: string;
  records: number;
  bytes: number;
  sha256: string;
}

export async function stageTables(
  sources: readonly TenantSource[],
  stagingDir: string,
  ctx: RequestContext,
): Promise<TableEntry[]> {
  const entries: TableEntry[] = [];
  for (const source of sources) {
    for (const collection of await collectionsOf(source, ctx)) {
      const path = `tables/${source.service}/${collection}.ndjson`;
      let records = 0;
      const counted = async function* () {
        for await (const line of dumpLines(source, collection, ctx)) {
          records += 1;
          yield line;
        }
      };
      const file = await writeHashedFile(join(stagingDir, path), counted());
      entries.push({ service: source.service, collection, path, records, ...file });
    }
  }
  return entries;
}
