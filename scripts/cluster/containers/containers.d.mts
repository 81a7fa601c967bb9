// Types of containers.mjs for the tests that start, break and read containerized clusters.

export interface ContainerClusterOptions {
  /** State, logs, pods' volumes, the broker (default FIELDOPS_DATA_DIR, else .data/containers). */
  dataDir?: string;
  /** Where the host's services are named (REDIS_URL, S3_*, FIELDOPS_ADMIN_SECRET); default process.env. */
  hostEnv?: Record<string, string | undefined>;
  /** Settings for every container, given to the chart as extraEnv (as an operator would). */
  env?: Record<string, string>;
  /** Capture-worker replicas (default 2). */
  workers?: number;
  /** The images' tag (default: the tag `npm run image -- build` moves). */
  tag?: string;
  /** More values files, after this machine's. */
  valuesFiles?: string[];
  /** True: the supervisor outlives the caller (the CLI). False (default): it stops when the caller exits. */
  detached?: boolean;
  readyTimeoutMs?: number;
}

export interface ContainerStatus {
  pod: string;
  deployment: string;
  component: string;
  index: number;
  id: string;
  image: string;
  address: string;
  ports: Record<string, number>;
  state: 'waiting' | 'running' | 'terminated' | 'unknown';
  reason?: string;
  ready: boolean;
  started: boolean;
  restarts: number;
  evictions: number;
  lastExit?: { code: number; reason: string; at: string };
  lastEviction?: { volume: string; usedBytes: number; at: string };
  /** The runc process that holds the container. */
  pid?: number;
  log: string;
  limits: { memoryLimitBytes?: number; cpuShares?: number; cpuQuotaMicros?: number };
  notHonoured: string[];
}

export interface ContainerCluster {
  /** The gateway pod's base URL (its address on the container network). */
  url: string;
  dataDir: string;
  adminSecret: string;
  s3: { env: Record<string, string> };
  /** Each service's gRPC address on the container network. */
  services: Record<string, string>;
  containers: ContainerStatus[];
}

export function defaultContainersDir(): string;
export function startContainerCluster(options?: ContainerClusterOptions): Promise<ContainerCluster>;
export function stopContainerCluster(options?: {
  dataDir?: string;
  removeData?: boolean;
}): Promise<{ stopped: string[] }>;
export function containerClusterStatus(options?: {
  dataDir?: string;
}): (ContainerCluster & { supervising: boolean }) | undefined;
/** SIGKILLs the index-th container of a kind; resolves with its status once the supervisor saw it exit. */
export function killContainer(
  options: { dataDir: string },
  component: string,
  index?: number,
): Promise<ContainerStatus>;
/** Resolves once that container has restarted `restarts` times in all, runs, and is ready. */
export function waitForContainer(
  options: { dataDir: string },
  component: string,
  wait: { restarts: number; index?: number; timeoutMs?: number },
): Promise<ContainerStatus>;
/** The pid, in this machine's namespace, of the container's first process (runc state). */
export function containerPid(
  options: { dataDir: string },
  component: string,
  index?: number,
): Promise<number>;
