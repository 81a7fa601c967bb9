// Types of oci-config.mjs: the runc config of a pod's container.
import type { Manifest, Pod } from './pod-spec.d.mts';
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
