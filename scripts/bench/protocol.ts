// What the bench's two processes tell each other over the IPC channel: the servers process
// (scripts/bench/servers.ts) reports where everything listens and how much CPU it has used; the
// load process (scripts/bench.ts) asks it to prepare and settle around each segment of load, and
// tells it when to stop.

/** One HTTP target the load process drives. */
export interface TargetSpec {
  /** Short id used on the command line (--only) and in the table. */
  id: TargetId;
  label: string;
  url: string;
  method: 'GET' | 'POST';
  /** Sent on every request (the pipeline rows carry the Manager token). */
  headers: Record<string, string>;
  /** A POST body and a unique Idempotency-Key are built per request (see load.ts). */
  keyedPost: boolean;
  /** The id of the row this one is compared with, if any. */
  baseline?: TargetId;
  /** The bar: this row's req/s must reach at least this fraction of its baseline's (issue 13). */
  minRatio?: number;
}

/** The comparison rows, or `<list>-<size>` for a row of the scale series (scripts/bench/scale.ts). */
export type TargetId =
  'bare' | 'plain-get' | 'pipeline-get' | 'plain-post' | 'pipeline-post' | `${string}-${number}`;

export interface ReadyMessage {
  type: 'ready';
  targets: TargetSpec[];
  /** Size of the captured GET /api/v1/leads page that the bare server answers with. */
  pageBytes: number;
  seededLeads: number;
  /** Under BENCH_SCALE_LIST: the list and the tenant size of each target, in target order. */
  scale?: { list: string; sizes: number[] };
  logLevel: string;
  crmAddress: string;
  /** The platform's URL and a Manager token of a tenant of its own, for the capture-e2e row. */
  capture: { url: string; token: string };
}

export interface FailedMessage {
  type: 'failed';
  error: string;
}

/** Answer to `prepare` and `settle`: the servers process has gone quiet (see servers.ts). */
export interface SettledMessage {
  type: 'settled';
  /** process.cpuUsage() of the servers process, user + system, in microseconds. */
  cpuMicros: number;
  /**
   * process.threadCpuUsage() of its main thread alone, in microseconds: the thread that serves
   * every request, and so what bounds req/s. Absent where the servers are many processes.
   */
  mainMicros?: number;
  /**
   * V8's full collections (mark-compact of the whole heap) in the servers process so far. Absent
   * where the servers are many processes.
   */
  fullCollections?: number;
  /** How long it took to go quiet. */
  waitedMs: number;
  /** The headers to send in the coming segment (a fresh tenant's token after `prepare`). */
  headers: Record<string, string>;
}

export type ServersMessage = ReadyMessage | FailedMessage | SettledMessage;

export interface StopMessage {
  type: 'stop';
}

/** Before a segment: optionally move the target to a fresh tenant, then settle. */
export interface PrepareMessage {
  type: 'prepare';
  target: TargetId;
  freshTenant: boolean;
  /** Names the segment's CPU profile under --profile: `warmup` or `round-<n>`. */
  label: string;
}

/** After a segment: wait for the work it left behind, and report the CPU used. */
export interface SettleMessage {
  type: 'settle';
  target: TargetId;
}

export type LoadMessage = StopMessage | PrepareMessage | SettleMessage;

export function isServersMessage(value: unknown): value is ServersMessage {
  if (typeof value !== 'object' || value === null || !('type' in value)) return false;
  return value.type === 'ready' || value.type === 'failed' || value.type === 'settled';
}

export function isLoadMessage(value: unknown): value is LoadMessage {
  if (typeof value !== 'object' || value === null || !('type' in value)) return false;
  return value.type === 'stop' || value.type === 'prepare' || value.type === 'settle';
}
