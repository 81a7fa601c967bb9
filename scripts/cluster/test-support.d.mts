// Types of test-support.mjs for the failure tests (test/cluster), which start clusters of their own.
import type { RunningCluster } from './cluster.d.mts';

export function s3FromTestLine(env?: NodeJS.ProcessEnv): Record<string, string>;
export interface TestCluster {
  cluster: RunningCluster;
  dataDir: string;
  /** Ends every process, removes the data dir and deletes the cluster's topics. */
  stop(): Promise<void>;
}
export function startTestCluster(options?: {
  env?: Record<string, string>;
  workers?: number;
  readyTimeoutMs?: number;
}): Promise<TestCluster>;
