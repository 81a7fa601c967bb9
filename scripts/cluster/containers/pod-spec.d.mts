// Types of pod-spec.mjs: what the supervisor runs for each replica of a rendered Deployment.
/** A rendered Kubernetes object (or an OCI config): objects of every kind, read field by field. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any kind's fields, as YAML gave them
export type Manifest = Record<string, any>;
export interface Probe {
  type: 'http' | 'tcp';
  path: string;
  port: number;
  initialDelaySeconds: number;
  periodSeconds: number;
  timeoutSeconds: number;
  failureThreshold: number;
  successThreshold: number;
}
export interface PodVolume {
  name: string;
  medium: 'Disk' | 'Memory';
  sizeLimitBytes?: number;
}
export interface PodContainer {
  name: string;
  image: string;
  argv: string[];
  workingDir: string;
  env: Record<string, string>;
  user: { uid: number; gid: number; additionalGids: number[]; fsGroup?: number };
  readOnlyRootFilesystem: boolean;
  noNewPrivileges: boolean;
  capabilities: string[];
  seccomp?: string;
  ports: Record<string, number>;
  mounts: { volume: string; path: string; readOnly: boolean }[];
  probes: { startup?: Probe; liveness?: Probe; readiness?: Probe };
  resources: { memoryLimitBytes?: number; cpuShares?: number; cpuQuotaMicros?: number };
}
export interface Pod {
  name: string;
  deployment: string;
  component: string;
  index: number;
  labels: Record<string, string>;
  terminationGracePeriodSeconds: number;
  volumes: PodVolume[];
  container: PodContainer;
  notHonoured: string[];
}
export interface ImageConfig {
  env: Record<string, string>;
  user: string;
  workingDir: string;
  entrypoint?: string[];
  cmd?: string[];
}
/** A Kubernetes quantity ("512Mi", "250m") in its base unit. */
export function quantity(text: string): number;
export function podsOf(manifests: Array<Manifest>, imageConfig: (image: string) => ImageConfig): Pod[];
export function servicesOf(
  manifests: Array<Manifest>,
  pods: Pod[],
): { name: string; ports: { name?: string; port: number; targetPort: number | string }[]; pods: string[] }[];
