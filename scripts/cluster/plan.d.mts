// Types of plan.mjs for the TypeScript tests that compare the cluster with the chart.
import type { ProcessKind } from '../topology.d.mts';

export interface PlannedProcess {
  name: string;
  kind: ProcessKind;
  index: number;
}
export interface SharedSettings {
  env: Record<string, string | undefined>;
  host: string;
  dataDir: string;
  kafka: { brokers: string; namespace?: string };
  s3Env: Record<string, string>;
  mongodbUri?: string;
  redisUrl?: string;
  adminSecret?: string;
}
export function clusterProcesses(options?: { workers?: number }): PlannedProcess[];
export function processEnv(
  planned: PlannedProcess,
  shared: SharedSettings,
  ports: Record<string, { port: number; opsPort: number }>,
): Record<string, string>;
