// Chooses the blob store adapter (ARCHITECTURE §3): S3 when S3_BUCKET is set (S3_CHECKSUMS picks its
// checksum mode, see s3.ts), else the embedded store under `<FIELDOPS_DATA_DIR>/blobs`. Read here
// rather than in config.ts so the S3 variables live beside the adapter they configure.
import { join } from 'node:path';
import { ConfigError } from '../config.js';
import { openEmbeddedBlobStore, type EmbeddedBlobStore } from './embedded.js';
import type { BlobStore } from './port.js';
import { openS3BlobStore, S3_CHECKSUM_MODES, type S3BlobStoreOptions, type S3Checksums } from './s3.js';

/** S3 settings from the environment, or undefined when S3_BUCKET is unset. */
export function s3OptionsFromEnv(env: NodeJS.ProcessEnv = process.env): S3BlobStoreOptions | undefined {
  const bucket = env['S3_BUCKET']?.trim();
  if (!bucket) return undefined;
  const accessKeyId = env['S3_ACCESS_KEY_ID']?.trim();
  const secretAccessKey = env['S3_SECRET_ACCESS_KEY']?.trim();
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new ConfigError(['S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or neither).']);
  }
  const endpoint = env['S3_ENDPOINT']?.trim();
  const pathStyle = env['S3_FORCE_PATH_STYLE']?.trim();
  const checksums = env['S3_CHECKSUMS']?.trim().toLowerCase();
  if (checksums && !(S3_CHECKSUM_MODES as readonly string[]).includes(checksums)) {
    throw new ConfigError([
      `S3_CHECKSUMS must be when_supported (the AWS SDK's flexible checksums, for AWS S3) or when_required ` +
        `(for S3-compatible stores that answer 501 NotImplemented to them), not "${env['S3_CHECKSUMS']}"; ` +
        `leave it unset for when_supported on AWS and when_required with S3_ENDPOINT.`,
    ]);
  }
  return {
    bucket,
    region: env['S3_REGION']?.trim() || 'us-east-1',
    ...(endpoint ? { endpoint } : {}),
    ...(pathStyle ? { forcePathStyle: /^(1|true|yes|on)$/i.test(pathStyle) } : {}),
    ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey } } : {}),
    ...(checksums ? { checksums: checksums as S3Checksums } : {}),
  };
}

export type OpenedBlobStore =
  { store: EmbeddedBlobStore; embedded: EmbeddedBlobStore } | { store: BlobStore; embedded: undefined };

/** `embedded` is set when the platform must serve the blob route itself. */
export async function openBlobStore(
  dataDir: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<OpenedBlobStore> {
  const s3 = s3OptionsFromEnv(env);
  if (s3) return { store: openS3BlobStore(s3), embedded: undefined };
  const embedded = await openEmbeddedBlobStore({ dir: join(dataDir, 'blobs') });
  return { store: embedded, embedded };
}
