// Types of render.mjs for the tests that read the chart as this machine runs it.
import type { Manifest } from './pod-spec.d.mts';
export const MACHINE_VALUES: string;
export const RELEASE: string;
export const DATA_HOSTS: { kafka: string; s3: string; redis: string };
export interface RunValuesInput {
  tag: string;
  kafkaPort: number;
  /** The S3_* settings of the host's S3 server (its S3_ENDPOINT is what this machine's clients use). */
  s3Env: Record<string, string>;
  adminSecret: string;
  /** The context keys and each kind's certificate (host-services.mjs pkiValues). */
  pki: {
    contextPublicKey: string;
    contextSigningKey: string;
    certificates: Record<string, { tlsCrt: string; tlsKey: string; caCrt: string }>;
  };
  /** Settings for every container, given to the chart as extraEnv. */
  extraEnv: Record<string, string>;
  workers: number;
}
export function runValues(input: RunValuesInput): Record<string, unknown>;
/** A values file's text in which every string stays a string for helm's YAML 1.1 (JSON). */
export function valuesText(values: Record<string, unknown>): string;
/** `helm template` of the chart with these values files, in order; every rendered object. */
export function renderChart(valuesFiles: string[]): Promise<{ text: string; manifests: Array<Manifest> }>;
