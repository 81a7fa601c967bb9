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
  pid?: number;
  /** The serving port (HTTP or gRPC); undefined for the workers. */
  port?: number;
  opsPort: number;
  state: 'running' | 'down';
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
}): (Omit<RunningCluster, 'processes'> & { processes: ProcessStatus[] }) | undefined;
/** SIGKILLs the index-th process of a kind (0-based) and its child processes; resolves once it is gone. */
export function killProcess(options: { dataDir: string }, kind: string, index?: number): Promise<boolean>;
/** Starts it again on its ports; resolves once its /readyz answers. */
export function restartProcess(
  options: { dataDir: string; readyTimeoutMs?: number },
  kind: string,
  index?: number,
): Promise<{ pid: number }>;
