// Types of server.mjs for the TypeScript tests and the cluster command that start an S3 server.
export const BUCKET: 'fieldops';
export const REGION: 'us-east-1';
export interface S3ServerInfo {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  port: number;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  pid: number;
  log: string;
  dir: string;
  /** True when a server of this folder was already running. */
  reused: boolean;
  /** S3_ENDPOINT, S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE, S3_CHECKSUMS. */
  env: Record<string, string>;
}
/** Resolves the pinned release's classpath (mvn, cached under ~/.cache/fieldops/s3). */
export function resolveClasspath(): Promise<string>;
export function freePort(): Promise<number>;
/** Starts the server of `dir` (port 9000 by default, 0 for a free one) unless it runs already. */
export function startS3(options: {
  dir: string;
  port?: number;
  readyTimeoutMs?: number;
}): Promise<S3ServerInfo>;
/** Ends exactly the server `dir` started; false if none ran. */
export function stopS3(options: { dir: string; kill?: boolean }): Promise<boolean>;
export function s3Status(options: {
  dir: string;
}): Promise<
  { running: false; log: string; dir: string } | ({ running: true; answering: boolean } & S3ServerInfo)
>;
/** `NAME=value NAME=value …`, the form the CLI prints after `Use it: `. */
export function envLine(env: Record<string, string>): string;
