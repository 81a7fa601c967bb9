// Types of cluster.mjs for the TypeScript tests that start a cluster of their own.
import type { Grants } from '../permissions.d.mts';

export interface ClusterOptions {
  /** Data, logs and state (default FIELDOPS_DATA_DIR, else .data/cluster). */
  dataDir?: string;
  /** The gateway's port (default PORT, else the previous start's, else 8080). */
  port?: number;
  host?: string;
  /** Capture-worker processes (default 2). */
  workers?: number;
  /** Added to this process's environment for every cluster process (rate limits, LOG_LEVEL...). */
  env?: Record<string, string>;
  /** True: the processes outlive the caller (the CLI). False (default): they die with it. */
  detached?: boolean;
  readyTimeoutMs?: number;
}

export interface ClusterProcess {
  name: string;
  kind: string;
  index: number;
  pid?: number;
  log: string;
}

export interface RunningCluster {
  /** The gateway's base URL. */
  url: string;
  dataDir: string;
  adminSecret: string;
  adminSecretGenerated: boolean;
  kafka: { brokers: string; namespace: string; started: boolean };
  s3: { started: boolean; env: Record<string, string> };
  processes: ClusterProcess[];
}

export interface ProcessStatus {
  name: string;
  kind: string;
  index: number;
  pid?: number;
  /** The serving port (HTTP or gRPC); undefined for the workers. */
  port?: number;
  opsPort: number;
  /** running; waiting (restart back-off); held (holdProcess); down (no supervisor, or not started). */
  state: 'running' | 'waiting' | 'held' | 'terminated' | 'down';
  /** Its readiness probe (/readyz) passed last. */
  ready: boolean;
  /** Restarts by the supervisor since the cluster started. */
  restarts: number;
  lastExit?: { code: number; reason: string; at: string };
  log: string;
  /** What its kind's permissions grant it here (scripts/permissions.mjs). */
  grants: Grants;
  /** Its command line (/proc/<pid>/cmdline) while it runs: node, its flags, its entry point. */
  command?: string[];
}

export function startCluster(options?: ClusterOptions): Promise<RunningCluster>;
/** Ends what the cluster started (and the broker / S3 server if it started them). */
export function stopCluster(options?: {
  dataDir?: string;
  removeData?: boolean;
}): Promise<{ stopped: string[]; kafka: boolean; s3: boolean }>;
export function clusterStatus(options?: {
  dataDir?: string;
}): (Omit<RunningCluster, 'processes'> & { supervising: boolean; processes: ProcessStatus[] }) | undefined;
/**
 * SIGKILLs the index-th process of a kind (0-based) and its child processes; resolves once it is
 * gone, with its restart count before the kill (undefined when it was not running). The supervisor
 * restarts it.
 */
export function killProcess(
  options: { dataDir: string },
  kind: string,
  index?: number,
): Promise<number | undefined>;
/** Resolves once the supervisor restarted it more than `restartsBefore` times and it is ready. */
export function awaitRestarted(
  options: { dataDir: string; readyTimeoutMs?: number },
  kind: string,
  index?: number,
  restartsBefore?: number,
): Promise<{ pid: number; restarts: number }>;
/** Scales it to zero: ended with SIGTERM and kept down by the supervisor. */
export function holdProcess(options: { dataDir: string }, kind: string, index?: number): Promise<void>;
/**
 * Lifts holdProcess's hold; resolves once it is ready again. `envChanges` (a value, or null to
 * unset) changes the environment it starts, and restarts from then on, with.
 */
export function restartProcess(
  options: { dataDir: string; readyTimeoutMs?: number },
  kind: string,
  index?: number,
  envChanges?: Record<string, string | null>,
): Promise<{ pid: number; restarts: number }>;
