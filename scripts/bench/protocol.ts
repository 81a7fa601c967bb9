// What the bench's two processes tell each other over the IPC channel: the servers process
// (scripts/bench/servers.ts) reports where everything listens, the load process (scripts/bench.ts)
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
  /** The id of the row this one is compared with for the 15% bar, if any. */
  baseline?: TargetId;
}

export type TargetId = 'bare' | 'plain-get' | 'pipeline-get' | 'plain-post' | 'pipeline-post';

export interface ReadyMessage {
  type: 'ready';
  targets: TargetSpec[];
  /** Size of the captured GET /api/v1/leads page that the bare server answers with. */
  pageBytes: number;
  seededLeads: number;
  logLevel: string;
  crmAddress: string;
}

export interface FailedMessage {
  type: 'failed';
  error: string;
}

export type ServersMessage = ReadyMessage | FailedMessage;

export interface StopMessage {
  type: 'stop';
}

export function isServersMessage(value: unknown): value is ServersMessage {
  if (typeof value !== 'object' || value === null || !('type' in value)) return false;
  return value.type === 'ready' || value.type === 'failed';
}

export function isStopMessage(value: unknown): value is StopMessage {
  return typeof value === 'object' && value !== null && 'type' in value && value.type === 'stop';
}
