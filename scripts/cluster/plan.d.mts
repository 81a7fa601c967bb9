// Types of plan.mjs for the TypeScript tests that compare the cluster with the chart.
import type { Grants } from '../permissions.d.mts';
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
  /** FIELDOPS_PHOTOGRAMMETRY_ENGINES for every process (engines.mjs). */
  photogrammetryEngines?: string;
}
export function clusterProcesses(options?: { workers?: number }): PlannedProcess[];
export function processEnv(
  planned: PlannedProcess,
  shared: SharedSettings,
  ports: Record<string, { port: number; opsPort: number }>,
): Record<string, string>;
export function scratchDir(dataDir: string, name: string): string;
export function processGrants(
  planned: PlannedProcess,
  shared: {
    dataDir: string;
    mongodbUri?: string;
    env?: Record<string, string | undefined>;
    pki?: { dir: string };
  },
): Grants;
