// Phase "assets": every blob stored in the tenant's namespace (captures, artifacts …), copied
// under blobs/<path inside the tenant>. The tenant's own earlier export archives are left out, or
// each export would contain every one before it.
import { blobPrefix, type BlobStore } from '@fieldops/kit/blobs';
import { join } from 'node:path';
import { writeHashedFile } from './hashed-file.ts';

export const EXPORTS_BLOB_FOLDER = 'exports';

export interface BlobEntry {
  key: string;
  path: string;
  bytes: number;
  sha256: string;
}

export async function stageBlobs(
  blobs: BlobStore,
  tenantId: string,
  stagingDir: string,
): Promise<BlobEntry[]> {
  const prefix = blobPrefix(tenantId);
  const skipped = blobPrefix(tenantId, EXPORTS_BLOB_FOLDER);
  const entries: BlobEntry[] = [];
  let cursor: string | undefined;
  do {
    const page = await blobs.list(prefix, cursor ? { cursor } : {});
    for (const item of page.items) {
      if (item.key.startsWith(skipped)) continue;
      const read = await blobs.get(item.key);
      if (!read) continue; // deleted since it was listed: nothing to copy
      const path = `blobs/${item.key.slice(prefix.length)}`;
      const file = await writeHashedFile(join(stagingDir, path), read.body);
      entries.push({ key: item.key, path, ...file });
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return entries;
}
