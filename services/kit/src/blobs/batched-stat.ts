// Why: both blob adapters answer stat() the same way, a head per key, a bounded number at a time
// (so a project with thousands of frames neither floods S3 nor opens thousands of files at once).
import type { BlobHead, BlobKey } from './port.ts';

/** How many heads stat() has in flight at once. */
export const STAT_CONCURRENCY = 16;

/** The head of every key (null for a missing one), read STAT_CONCURRENCY at a time. */
export async function statInBatches(
  keys: readonly BlobKey[],
  head: (key: BlobKey) => Promise<BlobHead | null>,
): Promise<Map<BlobKey, BlobHead | null>> {
  const heads = new Map<BlobKey, BlobHead | null>();
  for (let i = 0; i < keys.length; i += STAT_CONCURRENCY) {
    const batch = keys.slice(i, i + STAT_CONCURRENCY);
    const found = await Promise.all(batch.map(head));
    batch.forEach((key, j) => heads.set(key, found[j] ?? null));
  }
  return heads;
}
