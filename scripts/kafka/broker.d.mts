// Types of broker.mjs for the TypeScript tests that start a broker of their own.
export interface BrokerInfo {
  port: number;
  /** host:port, for KAFKA_BROKERS. */
  brokers: string;
  pid: number;
  log: string;
  dir: string;
  /** True when a broker of this folder was already running. */
  reused: boolean;
}
/** Resolves the pinned release's classpath (mvn, cached under ~/.cache/fieldops/kafka). */
export function resolveClasspath(): Promise<string>;
export function freePort(): Promise<number>;
/** A cluster id for the storage tool: base64url of 16 random bytes, never starting with "-". */
export function newClusterId(): string;
export function answersApiVersions(port: number, timeoutMs?: number): Promise<boolean>;
/** Starts the broker of `dir` (port 9092 by default, 0 for a free one) unless it runs already. */
export function startBroker(options: {
  dir: string;
  port?: number;
  readyTimeoutMs?: number;
  /** A second listener, advertised as itself, for a container network's host address. */
  containerListener?: { host: string; port: number };
}): Promise<BrokerInfo>;
/** Ends exactly the broker `dir` started; false if none ran. */
export function stopBroker(options: { dir: string; kill?: boolean }): Promise<boolean>;
export function brokerStatus(options: {
  dir: string;
}): Promise<
  { running: false; log: string; dir: string } | ({ running: true; answering: boolean } & BrokerInfo)
>;
