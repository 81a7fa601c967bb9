// The S3 blob store's settings, apart from the adapter: reading them (open-blob-store.ts) must not
// load the AWS SDK, which a process on the embedded store never uses.

export interface S3BlobStoreOptions {
  bucket: string;
  region: string;
  /** For S3-compatible stores (MinIO, R2, ...); unset means AWS. */
  endpoint?: string;
  /**
   * The endpoint presigned URLs are signed for, where the clients given them reach the store
   * (S3_PUBLIC_ENDPOINT); unset, `endpoint`. The service's own calls always go to `endpoint`.
   */
  publicEndpoint?: string;
  /** Path-style addressing (`<endpoint>/<bucket>/<key>`), which most compatible stores need. */
  forcePathStyle?: boolean;
  /** Unset: the SDK's default chain (environment, web identity, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /**
   * Flexible checksums on the service's own requests (s3.ts says why). Unset: `when_supported` on AWS
   * (no endpoint), `when_required` on an S3-compatible endpoint.
   */
  checksums?: S3Checksums;
}

export const S3_CHECKSUM_MODES = ['when_supported', 'when_required'] as const;
export type S3Checksums = (typeof S3_CHECKSUM_MODES)[number];

/** The checksum mode in effect for these options. */
export function checksumsOf(options: Pick<S3BlobStoreOptions, 'endpoint' | 'checksums'>): S3Checksums {
  return options.checksums ?? (options.endpoint ? 'when_required' : 'when_supported');
}
