import {
  type BlobKey,
  type BlobStore,
  blobByteSource,
  parseBlobKey,
  blobKeyTenant,
} from '@fieldops/kit/blobs';
import { AppError } from '@fieldops/kit';
import type { ByteSource } from '@fieldops/measure-engine';

export async function blobSource(
  blobs: BlobStore,
  tenantId: string,
  file: { key: string; name: string },
): Promise<ByteSource> {
  let key: BlobKey;
  try {
    key = parseBlobKey(file.key);
  } catch (error) {
    throw new AppError(
      'field_invalid',
      `files: ${file.key.slice(0, 100)} is not a blob key.`,
      { field: 'files' },
      { cause: error },
    );
  }
  // The key names its tenant; a key outside the caller's namespace does not exist for the caller.
  const head = blobKeyTenant(key) === tenantId ? await blobs.head(key) : null;
  if (!head)
    throw new AppError(
      'not_found',
      `${file.name || file.key} is not stored; upload and finalize the capture first.`,
    );
  return blobByteSource(
    blobs,
    key,
    { name: file.name, size: head.size },
    () => new AppError('unavailable', `${file.key} disappeared while it was being measured.`),
  );
}
