// Types of oci-config.mjs: the runc config of a pod's container.
/** A rendered Kubernetes object (or an OCI config): objects of every kind, read field by field. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any kind's fields, as YAML gave them
export type Manifest = Record<string, any>;
import type { Pod } from './pod-spec.d.mts';
export const RUNTIME_DEFAULT_SECCOMP: string;
export function runtimeDefaultSeccomp(capabilities: string[], file?: string): Manifest;
export function ociConfig(options: {
  pod: Pod;
  rootfs: string;
  netns: string;
  volumeSources: Record<string, string>;
  hostsFile: string;
  resolvFile: string;
  cgroupsPath: string;
}): Manifest;
