// Chooses the blob store adapter (ARCHITECTURE §3): S3 when S3_BUCKET is set (S3_CHECKSUMS picks its
// checksum mode, see s3.ts), else the embedded store under `<FIELDOPS_DATA_DIR>/blobs`. Read here
// rather than in config.ts so the S3 variables live beside the adapter they configure.
//
// S3_ENDPOINT is where the service itself talks to S3; S3_PUBLIC_ENDPOINT, where the clients given
// presigned URLs reach it. In a cluster they differ (an in-cluster Service name no client outside
// resolves, and a public Ingress or CDN name), and a presigned URL cannot be rewritten from one to
// the other: SigV4 signs the host. So URLs are signed for the public endpoint (s3.ts).
import { join } from 'node:path';
import { ConfigError } from '../config.ts';
import { openEmbeddedBlobStore, type EmbeddedBlobStore } from './embedded.ts';
import type { BlobStore } from './port.ts';
import { S3_CHECKSUM_MODES, type S3BlobStoreOptions, type S3Checksums } from './s3-options.ts';

/** S3 settings from the environment, or undefined when S3_BUCKET is unset. */
export function s3OptionsFromEnv(env: NodeJS.ProcessEnv = process.env): S3BlobStoreOptions | undefined {
  const bucket = env['S3_BUCKET']?.trim();
  if (!bucket) return undefined;
  const accessKeyId = env['S3_ACCESS_KEY_ID']?.trim();
  const secretAccessKey = env['S3_SECRET_ACCESS_KEY']?.trim();
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new ConfigError(['S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or neither).']);
  }
  const endpoint = endpointFrom(env, 'S3_ENDPOINT', 'where this service reaches S3');
  const publicEndpoint = endpointFrom(
    env,
    'S3_PUBLIC_ENDPOINT',
    'where the clients of presigned URLs reach S3',
  );
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
    ...(publicEndpoint ? { publicEndpoint } : {}),
    ...(pathStyle ? { forcePathStyle: /^(1|true|yes|on)$/i.test(pathStyle) } : {}),
    ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey } } : {}),
    ...(checksums ? { checksums: checksums as S3Checksums } : {}),
  };
}

/** An S3 endpoint variable's value: unset, or an http(s) URL with a host (refused otherwise). */
function endpointFrom(env: NodeJS.ProcessEnv, name: string, meaning: string): string | undefined {
  const value = env[name]?.trim();
  if (!value) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:$/.test(url.protocol) || !url.host) {
    throw new ConfigError([
      `${name} must be an http(s) URL, ${meaning}, such as https://s3.example.com or http://minio:9000 (got "${value}").`,
    ]);
  }
  return value;
}

export type OpenedBlobStore =
  { store: EmbeddedBlobStore; embedded: EmbeddedBlobStore } | { store: BlobStore; embedded: undefined };

/** `embedded` is set when the platform must serve the blob route itself. */
export async function openBlobStore(
  dataDir: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<OpenedBlobStore> {
  const s3 = s3OptionsFromEnv(env);
  if (s3) {
    // Imported only when selected: the AWS SDK is a few hundred modules to load.
    const { openS3BlobStore } = await import('./s3.ts');
    return { store: openS3BlobStore(s3), embedded: undefined };
  }
  const embedded = await openEmbeddedBlobStore({ dir: join(dataDir, 'blobs') });
  return { store: embedded, embedded };
}
