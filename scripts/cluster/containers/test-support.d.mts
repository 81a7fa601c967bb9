// Types of test-support.mjs for the tests that start containerized clusters of their own.
import type { ContainerCluster } from './containers.d.mts';

export interface TestContainerCluster {
  cluster: ContainerCluster;
  dataDir: string;
  /** Drains every container, takes down the network and the broker, removes the data dir. */
  stop(): Promise<{ stopped: string[] }>;
}
export interface TestContainerClusterOptions {
  /** Settings for every container (the chart's extraEnv). */
  env?: Record<string, string>;
  workers?: number;
  /** Chart values for this cluster, after this machine's. */
  values?: Record<string, unknown>;
  readyTimeoutMs?: number;
}
export function startTestContainerCluster(
  options?: TestContainerClusterOptions,
): Promise<TestContainerCluster>;
