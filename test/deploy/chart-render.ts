// Renders charts/fieldops with the real helm binary (scripts/helm.mjs) and validates every manifest
// offline against the Kubernetes API schemas (kubernetes-models) and KEDA's CRD schemas. Shared by
// the chart tests; not a test file itself.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseAllDocuments, stringify } from 'yaml';
import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject';
import type { IScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject';
import { TriggerAuthentication } from '@kubernetes-models/keda/keda.sh/v1alpha1/TriggerAuthentication';
import type { ITriggerAuthentication } from '@kubernetes-models/keda/keda.sh/v1alpha1/TriggerAuthentication';
import { PrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule';
import type { IPrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule';
import { Job } from 'kubernetes-models/batch/v1/Job';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import type { IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Secret } from 'kubernetes-models/v1/Secret';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import type { IService } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import type { IServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import { ensureHelm } from '../../scripts/helm.mjs';

const run = promisify(execFile);
export const root = join(import.meta.dirname, '..', '..');
export const CHART = join(root, 'charts', 'fieldops');

/** The kinds the chart may render, each with the validator of its API schema. */
const VALIDATORS = {
  'v1/ConfigMap': (doc: unknown) => new ConfigMap(doc as IConfigMap).validate(),
  'v1/Secret': (doc: unknown) => new Secret(doc as ISecret).validate(),
  'v1/Service': (doc: unknown) => new Service(doc as IService).validate(),
  'v1/ServiceAccount': (doc: unknown) => new ServiceAccount(doc as IServiceAccount).validate(),
  'apps/v1/Deployment': (doc: unknown) => new Deployment(doc as IDeployment).validate(),
  'batch/v1/Job': (doc: unknown) => new Job(doc as IJob).validate(),
  'policy/v1/PodDisruptionBudget': (doc: unknown) =>
    new PodDisruptionBudget(doc as IPodDisruptionBudget).validate(),
  'autoscaling/v2/HorizontalPodAutoscaler': (doc: unknown) =>
    new HorizontalPodAutoscaler(doc as IHorizontalPodAutoscaler).validate(),
  'networking.k8s.io/v1/NetworkPolicy': (doc: unknown) => new NetworkPolicy(doc as INetworkPolicy).validate(),
  'networking.k8s.io/v1/Ingress': (doc: unknown) => new Ingress(doc as IIngress).validate(),
  'keda.sh/v1alpha1/ScaledObject': (doc: unknown) => new ScaledObject(doc as IScaledObject).validate(),
  'keda.sh/v1alpha1/TriggerAuthentication': (doc: unknown) =>
    new TriggerAuthentication(doc as ITriggerAuthentication).validate(),
  'monitoring.coreos.com/v1/PrometheusRule': (doc: unknown) =>
    new PrometheusRule(doc as IPrometheusRule).validate(),
} as const;

type Typed = {
  ConfigMap: IConfigMap;
  Secret: ISecret;
  Service: IService;
  ServiceAccount: IServiceAccount;
  Deployment: IDeployment;
  Job: IJob;
  PodDisruptionBudget: IPodDisruptionBudget;
  HorizontalPodAutoscaler: IHorizontalPodAutoscaler;
  NetworkPolicy: INetworkPolicy;
  Ingress: IIngress;
  ScaledObject: IScaledObject;
  TriggerAuthentication: ITriggerAuthentication;
  PrometheusRule: IPrometheusRule;
};

export interface HelmResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function helm(args: string[]): Promise<HelmResult> {
  const binary = await ensureHelm();
  try {
    const { stdout, stderr } = await run(binary, args, { cwd: root, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const failed = err as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

export interface ValuesInput {
  /** Values files of the chart (values-small.yaml...), applied in order. */
  files?: string[];
  /** Values applied last, as a values file (no --set escaping). */
  values?: Record<string, unknown>;
}

/** Runs helm with `-f` for each values file and for the inline values (written to a temp file). */
export async function withValues<T>(input: ValuesInput, use: (flags: string[]) => Promise<T>): Promise<T> {
  const flags = (input.files ?? []).flatMap((file) => ['-f', join(CHART, file)]);
  if (!input.values) return use(flags);
  const dir = await mkdtemp(join(tmpdir(), 'fieldops-chart-'));
  try {
    const file = join(dir, 'values.yaml');
    await writeFile(file, stringify(input.values));
    return await use([...flags, '-f', file]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export const RELEASE = 'fo';

export async function template(input: ValuesInput): Promise<HelmResult> {
  return withValues(input, (flags) =>
    helm(['template', RELEASE, CHART, '--namespace', 'fieldops', ...flags]),
  );
}

/** NOTES.txt as `helm install` prints it, rendered on the client (no cluster is contacted). */
export async function notes(input: ValuesInput): Promise<string> {
  const result = await withValues(input, (flags) =>
    helm(['install', RELEASE, CHART, '--namespace', 'fieldops', '--dry-run=client', ...flags]),
  );
  if (result.code !== 0) throw new Error(`helm install --dry-run=client failed:\n${result.stderr}`);
  const start = result.stdout.indexOf('NOTES:');
  if (start < 0) throw new Error('helm install --dry-run=client printed no NOTES');
  return result.stdout.slice(start);
}

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
}

/** The rendered objects of a release, validated, with typed look-ups by kind. */
export class Rendered {
  readonly manifests: Manifest[];
  constructor(manifests: Manifest[]) {
    this.manifests = manifests;
  }

  all<K extends keyof Typed>(kind: K): Typed[K][] {
    return this.manifests.filter((m) => m.kind === kind) as unknown as Typed[K][];
  }

  one<K extends keyof Typed>(kind: K, name: string): Typed[K] {
    const found = this.all(kind).find((m) => m.metadata?.name === name);
    if (!found) throw new Error(`no ${kind} named ${name} in the rendered release`);
    return found;
  }
}

/** Parses helm's output; throws on a YAML error, an unknown kind, or a manifest its schema refuses. */
export function parseAndValidate(yamlText: string): Rendered {
  const manifests: Manifest[] = [];
  for (const doc of parseAllDocuments(yamlText)) {
    if (doc.errors.length > 0) throw new Error(`rendered YAML does not parse: ${doc.errors[0]?.message}`);
    const value = doc.toJS() as Manifest | null;
    if (value === null) continue;
    const key = `${value.apiVersion}/${value.kind}` as keyof typeof VALIDATORS;
    const validate = VALIDATORS[key];
    if (!validate) throw new Error(`${key} ${value.metadata?.name}: no schema to validate it against`);
    try {
      validate(value);
    } catch (err) {
      throw new Error(`${key} ${value.metadata?.name} breaks its schema: ${(err as Error).message}`, {
        cause: err,
      });
    }
    manifests.push(value);
  }
  return new Rendered(manifests);
}

export async function render(input: ValuesInput): Promise<Rendered> {
  const result = await template(input);
  if (result.code !== 0) throw new Error(`helm template failed:\n${result.stderr}`);
  return parseAndValidate(result.stdout);
}

/** True when every matchLabels entry is among the labels. */
export function selects(matchLabels: Record<string, string> | undefined, labels: Record<string, string>) {
  return Object.entries(matchLabels ?? {}).every(([key, value]) => labels[key] === value);
}
