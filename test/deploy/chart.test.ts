// The Helm chart (charts/fieldops) as CI checks it: `helm lint --strict` and `helm template` with the
// real helm binary for each values profile, every rendered manifest validated against the
// Kubernetes (and KEDA) schemas offline, and what a platform team checks before installing it:
// hardened pods, probes on the health endpoints, resources, a PDB per workload, NetworkPolicies
// that leave only the gateway reachable, and a values schema that refuses what it does not know.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { INetworkPolicyPeer } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicyPeer';
import { SERVICE_ADDRESS_VARIABLES } from '@fieldops/gateway';
import { JOBS, processKinds } from '../../scripts/build-bundles.mjs';
import { readTopology } from '../../scripts/topology.mjs';
import { registry as metricsRegistry } from '@fieldops/kit/metrics';
import type { Rendered } from './chart-render.ts';
import {
  CHART,
  RELEASE,
  helm,
  notes,
  parseAndValidate,
  render,
  selects,
  template,
  withValues,
} from './chart-render.ts';

const INLINE_CREDENTIALS = {
  config: { kafkaBrokers: 'kafka-0.kafka:9092,kafka-1.kafka:9092', s3: { bucket: 'fieldops-blobs' } },
  secrets: {
    mongodbUri: 'mongodb://fieldops:pw@mongo-0.mongo:27017/fieldops?replicaSet=rs0',
    redisUrl: 'redis://:pw@redis-master:6379',
    adminSecret: 'an-operator-secret-of-32-characters',
    contextPublicKey: '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----\n',
    contextSigningKey: '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2Vw\n-----END PRIVATE KEY-----\n',
  },
};

interface ValuesFile {
  services: Record<string, unknown>;
}
const SERVICE_NAMES = Object.keys(
  (parse(readFileSync(join(CHART, 'values.yaml'), 'utf8')) as ValuesFile).services,
);

/** Every service and the capture workers on: renders every template, whether or not its process exists yet. */
function everything(keda: boolean) {
  return {
    files: ['values-production.yaml'],
    values: {
      services: Object.fromEntries(SERVICE_NAMES.map((name) => [name, { enabled: true }])),
      captureWorkers: {
        enabled: true,
        keda: { enabled: keda, prometheus: { serverAddress: 'http://prometheus.monitoring:9090' } },
      },
    },
  };
}

// The profiles people install: each must only start processes that exist.
const SHIPPED = {
  small: { files: ['values-small.yaml'] },
  production: { files: ['values-production.yaml'] },
  'defaults with inline credentials': { values: INLINE_CREDENTIALS },
};
// A trial without MongoDB: each service's store in its pod (store.embedded), one replica each.
const EMBEDDED = { files: ['values-small.yaml'], values: { store: { embedded: true } } };
const ALL_RENDERS = {
  ...SHIPPED,
  'everything, workers on KEDA': everything(true),
  'everything, workers on their HPA': everything(false),
  'small with the embedded store': EMBEDDED,
};
type RenderName = keyof typeof ALL_RENDERS;
/** The renders whose services keep their stores in MongoDB (every one but the embedded store's). */
const ON_MONGODB = (Object.keys(ALL_RENDERS) as RenderName[]).filter(
  (name) => ALL_RENDERS[name] !== EMBEDDED,
);

/**
 * Six helm renders, each validated object by object against its Kubernetes schema: seconds on a
 * quiet machine, but CI runs this beside other suites on two cores, where the default 30 s hook
 * timeout was seen to run out (at a load average of 10).
 */
const RENDER_TIMEOUT_MS = 180_000;
const renders = new Map<RenderName, Rendered>();
beforeAll(async () => {
  const names = Object.keys(ALL_RENDERS) as RenderName[];
  const results = await Promise.all(names.map((name) => render(ALL_RENDERS[name])));
  names.forEach((name, index) => renders.set(name, results[index]!));
}, RENDER_TIMEOUT_MS);
const rendered = (name: RenderName) => renders.get(name)!;
const fullName = (component: string) => `${RELEASE}-fieldops-${component}`;
const componentOf = (d: IDeployment) => d.metadata!.labels!['app.kubernetes.io/component']!;
const podLabels = (d: IDeployment) => d.spec!.template.metadata!.labels!;
const mainContainer = (d: IDeployment) => d.spec!.template.spec!.containers[0]!;
const env = (c: IContainer, name: string) => c.env?.find((e) => e.name === name);
const TOPOLOGY = readTopology();
const kindOf = (d: IDeployment) => TOPOLOGY.find((kind) => kind.component === componentOf(d))!;
const volume = (d: IDeployment, name: string) => d.spec!.template.spec!.volumes?.find((v) => v.name === name);
const mount = (d: IDeployment, name: string) => mainContainer(d).volumeMounts?.find((m) => m.name === name);
const configData = (release: Rendered) => release.all('ConfigMap')[0]!.data!;
// The chart's fixed mount paths: /tmp for everyone, the scratch volume of the kinds that stage large
// files (FIELDOPS_SCRATCH_DIR), the embedded store's data volume (FIELDOPS_DATA_DIR).
const WRITABLE: Record<string, string> = { tmp: '/tmp', scratch: '/var/scratch', data: '/var/lib/fieldops' };

describe('helm lint --strict', () => {
  test.each(Object.entries({ ...SHIPPED, 'small with the embedded store': EMBEDDED }))(
    'passes for %s',
    async (_name, input) => {
      const result = await withValues(input, (flags) => helm(['lint', '--strict', CHART, ...flags]));
      expect(result.stdout + result.stderr).not.toMatch(/\[(WARNING|ERROR)\]/);
      expect(result.stdout).toContain('1 chart(s) linted, 0 chart(s) failed');
      expect(result.code).toBe(0);
    },
  );
});

describe('supported Kubernetes versions', () => {
  test('lints clean against the oldest supported version, and refuses an older cluster', async () => {
    const production = { files: ['values-production.yaml'] };
    const oldest = await withValues(production, (flags) =>
      helm(['lint', '--strict', '--kube-version', '1.27.0', CHART, ...flags]),
    );
    expect(oldest.stdout).toContain('1 chart(s) linted, 0 chart(s) failed');
    const older = await withValues(production, (flags) =>
      helm(['template', RELEASE, CHART, '--kube-version', '1.26.0', ...flags]),
    );
    expect(older.stderr).toContain('chart requires kubeVersion: >=1.27.0-0');
  });
});

describe('offline schema validation', () => {
  test('refuses what the API server would refuse, and kinds it has no schema for', () => {
    const deployment = (port: unknown) => `apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec: { containers: [{ name: web, image: web, ports: [{ containerPort: ${JSON.stringify(port)} }] }] }
`;
    expect(parseAndValidate(deployment(8080)).all('Deployment')).toHaveLength(1);
    expect(() => parseAndValidate(deployment('8080'))).toThrow(
      'apps/v1/Deployment web breaks its schema: data/spec/template/spec/containers/0/ports/0/containerPort must be integer',
    );
    const keda =
      'apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata: { name: w }\nspec: { triggers: [] }\n';
    expect(() => parseAndValidate(keda)).toThrow(/ScaledObject w breaks its schema: .*scaleTargetRef/);
    expect(() => parseAndValidate('apiVersion: v1\nkind: Pod\nmetadata: { name: p }\n')).toThrow(
      'v1/Pod p: no schema to validate it against',
    );
  });
});

describe.each(Object.keys(ALL_RENDERS) as RenderName[])('rendered with %s', (name) => {
  test('every manifest is valid against its Kubernetes schema, with unique names', () => {
    // render() already validated each manifest; an unknown kind or a schema error fails beforeAll.
    const names = rendered(name).manifests.map((m) => `${m.kind}/${m.metadata.name}`);
    expect(names.length).toBeGreaterThan(10);
    expect(new Set(names).size).toBe(names.length);
    // Everything the release made can be found (and cleaned up) by its labels.
    for (const manifest of rendered(name).manifests) {
      expect(manifest.metadata.labels).toMatchObject({
        'app.kubernetes.io/instance': RELEASE,
        'app.kubernetes.io/managed-by': 'Helm',
        'app.kubernetes.io/part-of': 'fieldops',
      });
    }
  });

  test('every Deployment runs non-root on a read-only root filesystem, with no privileges', () => {
    for (const deployment of rendered(name).all('Deployment')) {
      const pod = deployment.spec!.template.spec!;
      expect(pod.securityContext).toMatchObject({
        runAsNonRoot: true,
        seccompProfile: { type: 'RuntimeDefault' },
      });
      expect(pod.securityContext!.runAsUser).toBeGreaterThan(0);
      expect(pod.automountServiceAccountToken).toBe(false);
      expect([pod.hostNetwork, pod.hostPID, pod.hostIPC]).toEqual([undefined, undefined, undefined]);
      for (const container of pod.containers) {
        expect(container.securityContext).toMatchObject({
          runAsNonRoot: true,
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
          capabilities: { drop: ['ALL'] },
        });
        expect(container.securityContext!.privileged).toBeUndefined();
        expect(container.image).not.toMatch(/:latest$/);
        // The only writable paths are bounded emptyDirs: /tmp, and scratch or data where a kind has them.
        expect(container.volumeMounts).toContainEqual({ name: 'tmp', mountPath: '/tmp' });
        for (const { name: volumeName, mountPath } of container.volumeMounts ?? [])
          expect({ volumeName, mountPath }).toEqual({ volumeName, mountPath: WRITABLE[volumeName] });
        expect((container.volumeMounts ?? []).map((m) => m.name).sort()).toEqual(
          (pod.volumes ?? []).map((v) => v.name).sort(),
        );
      }
      for (const podVolume of pod.volumes ?? [])
        expect(podVolume).toEqual({ name: podVolume.name, emptyDir: { sizeLimit: expect.any(String) } });
      // /tmp stays small: what is large has a volume of its own.
      expect(volume(deployment, 'tmp')?.emptyDir?.sizeLimit).toBe('256Mi');
    }
  });

  test('every Deployment probes the health endpoints on the ops port the process serves', () => {
    for (const deployment of rendered(name).all('Deployment')) {
      const container = mainContainer(deployment);
      const ops = container.ports!.find((p) => p.name === 'ops')!;
      expect(env(container, 'FIELDOPS_OPS_PORT')?.value).toBe(String(ops.containerPort));
      expect(container.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'ops' });
      expect(container.startupProbe?.httpGet).toEqual({ path: '/healthz', port: 'ops' });
      expect(container.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'ops' });
      // The process keeps serving with /readyz at 503 for the drain, then stops before the kill.
      const drainMs = Number(env(container, 'FIELDOPS_DRAIN_MS')?.value);
      expect(drainMs).toBeGreaterThan(0);
      expect(drainMs).toBeLessThan(deployment.spec!.template.spec!.terminationGracePeriodSeconds! * 1000);
      expect(env(container, 'HOST')?.value).toBe('0.0.0.0');
    }
  });

  test('every Deployment requests CPU and memory and caps memory', () => {
    for (const deployment of rendered(name).all('Deployment')) {
      const { resources } = mainContainer(deployment);
      expect(resources?.requests).toEqual({ cpu: expect.anything(), memory: expect.anything() });
      expect(resources?.limits?.memory).toBeDefined();
    }
  });

  test('every Deployment has exactly one PodDisruptionBudget, selecting only its pods', () => {
    const deployments = rendered(name).all('Deployment');
    for (const deployment of deployments) {
      const budgets = rendered(name)
        .all('PodDisruptionBudget')
        .filter((pdb) => selects(pdb.spec!.selector!.matchLabels, podLabels(deployment)));
      expect(budgets).toHaveLength(1);
      const budget = budgets[0]!;
      const others = deployments.filter((d) => d !== deployment);
      for (const other of others)
        expect(selects(budget.spec!.selector!.matchLabels, podLabels(other))).toBe(false);
      expect(budget.spec!.minAvailable ?? budget.spec!.maxUnavailable).toBeDefined();
    }
  });

  test('a default-deny NetworkPolicy covers every pod, and every allowed port is named', () => {
    const policies = rendered(name).all('NetworkPolicy');
    const denyAll = policies.filter((p) => p.spec!.ingress === undefined);
    expect(denyAll).toHaveLength(1);
    expect(denyAll[0]!.spec!.policyTypes).toEqual(['Ingress']);
    for (const deployment of rendered(name).all('Deployment')) {
      expect(selects(denyAll[0]!.spec!.podSelector?.matchLabels, podLabels(deployment))).toBe(true);
    }
    for (const rule of policies.flatMap((p) => p.spec!.ingress ?? [])) {
      expect(rule.ports?.length).toBeGreaterThan(0);
    }
  });

  test('only the gateway is reachable from outside; each service only from the gateway and its declared callers', () => {
    const release = rendered(name);
    const deployments = release.all('Deployment');
    const calls = callGraph();
    for (const deployment of deployments) {
      const component = componentOf(deployment);
      const serving = mainContainer(deployment).ports!.filter((p) => p.name !== 'ops');
      for (const port of serving) {
        const sources = allowedSources(release, deployment, port.name!);
        if (component === 'gateway') continue; // reachable as networkPolicy.gatewayFrom says
        if (sources === 'anyone') throw new Error(`${component}'s ${port.name} port is open to anyone`);
        // Pods of this release only, identified by their component.
        const callers = sources.map((peer) => {
          expect(peer.namespaceSelector).toBeUndefined();
          expect(peer.ipBlock).toBeUndefined();
          const caller = deployments.find((d) => selects(peer.podSelector?.matchLabels, podLabels(d)));
          // Pods of one component of this release, not every pod of the release.
          expect(Object.keys(peer.podSelector!.matchLabels!)).toContain('app.kubernetes.io/component');
          if (!caller)
            throw new Error(`${component} is reachable from pods that are not part of the release`);
          return componentOf(caller);
        });
        const enabled = new Set(deployments.map(componentOf));
        const declared = Object.entries(calls)
          .filter(([caller, targets]) => targets.includes(component) && enabled.has(caller))
          .map(([caller]) => caller);
        expect(callers.sort()).toEqual(['gateway', ...declared].sort());
      }
    }
  });

  test('each process dials the services it calls at their Service name and gRPC port', () => {
    const release = rendered(name);
    for (const deployment of release.all('Deployment')) {
      for (const variable of mainContainer(deployment).env ?? []) {
        const match = /^FIELDOPS_([A-Z]+)_ADDR$/.exec(variable.name);
        if (!match) continue;
        const [host, port] = variable.value!.split(':');
        const service = release.one('Service', host!);
        const target = release.one('Deployment', host!);
        expect(selects(service.spec!.selector, podLabels(target))).toBe(true);
        const grpc = service.spec!.ports!.find((p) => p.name === 'grpc')!;
        expect(String(grpc.port)).toBe(port);
        expect(mainContainer(target).ports!.some((p) => p.name === grpc.targetPort)).toBe(true);
        expect(componentOf(target)).toBe(match[1]!.toLowerCase());
      }
    }
  });

  test('each gRPC Service is headless, so a caller resolves every ready pod and round-robins over them', () => {
    const release = rendered(name);
    for (const service of release.all('Service')) {
      const grpc = service.spec!.ports!.some((p) => p.name === 'grpc');
      // A ClusterIP is one virtual address: a grpc-js channel would keep one connection to one pod.
      expect({ name: service.metadata!.name, clusterIP: service.spec!.clusterIP ?? 'assigned' }).toEqual({
        name: service.metadata!.name,
        clusterIP: grpc ? 'None' : 'assigned',
      });
      // Only ready pods are published: a pod whose /readyz fails leaves its callers' DNS answers.
      expect(service.spec!.publishNotReadyAddresses ?? false).toBe(false);
    }
  });

  test('every Service selects one Deployment and targets ports its container names', () => {
    const release = rendered(name);
    for (const service of release.all('Service')) {
      const targets = release.all('Deployment').filter((d) => selects(service.spec!.selector, podLabels(d)));
      expect(targets).toHaveLength(1);
      const named = mainContainer(targets[0]!).ports!.map((p) => p.name);
      for (const port of service.spec!.ports!) expect(named).toContain(port.targetPort);
    }
  });

  test('each autoscaler targets a Deployment of the release, which leaves its replica count to it', () => {
    const release = rendered(name);
    const targets = [
      ...release.all('HorizontalPodAutoscaler').map((hpa) => hpa.spec!.scaleTargetRef.name),
      ...release.all('ScaledObject').map((so) => so.spec!.scaleTargetRef.name),
    ];
    expect(new Set(targets).size).toBe(targets.length);
    for (const target of targets) expect(release.one('Deployment', target).spec!.replicas).toBeUndefined();
  });

  test('credentials come from a Secret, never from the ConfigMap', () => {
    const release = rendered(name);
    const [config] = release.all('ConfigMap');
    expect(Object.keys(config!.data!)).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/MONGODB_URI|REDIS_URL|SECRET|PASSWORD|ACCESS_KEY/)]),
    );
    const secretNames = new Set(release.all('Secret').map((s) => s.metadata!.name));
    for (const deployment of release.all('Deployment')) {
      for (const variable of mainContainer(deployment).env ?? []) {
        if (
          /MONGODB_URI|REDIS_URL|FIELDOPS_ADMIN_SECRET|S3_SECRET_ACCESS_KEY|KAFKA_SASL/.test(variable.name)
        ) {
          const ref = variable.valueFrom?.secretKeyRef;
          expect(ref?.key).toBe(variable.name);
          // The chart's own Secret, or the existingSecret the profile names.
          expect(secretNames.has(ref!.name!) || ref!.name === 'fieldops-secrets').toBe(true);
        }
      }
      expect(mainContainer(deployment).envFrom).toEqual([{ configMapRef: { name: config!.metadata!.name } }]);
    }
  });
});

/**
 * The peers the NetworkPolicies let reach the named port of the deployment's pods, or 'anyone'
 * when a rule allowing that port names no source.
 */
function allowedSources(
  release: Rendered,
  deployment: IDeployment,
  port: string,
): INetworkPolicyPeer[] | 'anyone' {
  const rules = release
    .all('NetworkPolicy')
    .filter((p) => selects(p.spec!.podSelector?.matchLabels, podLabels(deployment)))
    .flatMap((p) => p.spec!.ingress ?? [])
    .filter((rule) => rule.ports?.some((p) => p.port === port));
  if (rules.some((rule) => !rule.from || rule.from.length === 0)) return 'anyone';
  return rules.flatMap((rule) => rule.from!);
}

/**
 * Who calls whom over gRPC, besides the gateway: topology.yaml's `dials`, read here without helm.
 * test/deploy/topology.test.ts checks that the entry points read no other address.
 */
function callGraph(): Record<string, string[]> {
  return Object.fromEntries(
    readTopology()
      .filter((kind) => kind.component !== 'gateway' && kind.dials.length > 0)
      .map((kind) => [kind.component, kind.dials]),
  );
}

describe('the profiles people install', () => {
  test.each(Object.keys(SHIPPED) as RenderName[])('%s: start only processes that exist', (name) => {
    const kinds = processKinds();
    for (const deployment of rendered(name).all('Deployment')) {
      const command = mainContainer(deployment).command!;
      expect(command.slice(0, 2)).toEqual(['node', '--enable-source-maps']);
      const kind = /^\/app\/dist\/(.+)\.mjs$/.exec(command.at(-1)!)?.[1];
      expect(Object.keys(kinds)).toContain(kind);
    }
  });

  test.each(Object.keys(SHIPPED) as RenderName[])(
    '%s: runs every service the gateway dials (it refuses to start without their addresses)',
    (name) => {
      const gateway = mainContainer(rendered(name).one('Deployment', fullName('gateway')));
      const missing = Object.entries(SERVICE_ADDRESS_VARIABLES)
        .filter(([, variable]) => !/^fo-fieldops-[a-z]+:50051$/.test(env(gateway, variable)?.value ?? ''))
        .map(
          ([service, variable]) =>
            `${variable}: enable services.${service} (needs services/${service}/src/main.ts)`,
        );
      expect(missing).toEqual([]);
    },
  );

  test('every process kind in the repository has a place in the chart values', () => {
    const values = parse(readFileSync(join(CHART, 'values.yaml'), 'utf8')) as Record<string, unknown>;
    for (const kind of Object.keys(processKinds())) {
      if (kind === 'gateway') expect(values.gateway).toBeDefined();
      else if (kind === 'capture-worker') expect(values.captureWorkers).toBeDefined();
      else expect(SERVICE_NAMES).toContain(kind);
    }
  });

  test('every service a process dials is enabled with it in each profile', () => {
    const calls = callGraph();
    for (const name of Object.keys(SHIPPED) as RenderName[]) {
      const components = new Set(rendered(name).all('Deployment').map(componentOf));
      for (const [caller, targets] of Object.entries(calls)) {
        if (components.has(caller)) for (const target of targets) expect(components).toContain(target);
      }
    }
  });

  test.each(Object.keys(ALL_RENDERS) as RenderName[])(
    '%s: every pod serves /metrics only with the bearer FIELDOPS_METRICS_TOKEN from the Secret',
    (name) => {
      const release = rendered(name);
      for (const deployment of release.all('Deployment')) {
        const ref = env(mainContainer(deployment), 'FIELDOPS_METRICS_TOKEN')?.valueFrom?.secretKeyRef;
        expect([deployment.metadata!.name, ref?.key, ref?.optional]).toEqual([
          deployment.metadata!.name,
          'FIELDOPS_METRICS_TOKEN',
          undefined,
        ]);
      }
      // A Secret the chart writes holds a token (derived from the admin secret, never equal to it).
      for (const secret of release.all('Secret').filter((x) => x.metadata!.name === `${RELEASE}-fieldops`)) {
        const token = secret.stringData?.FIELDOPS_METRICS_TOKEN ?? '';
        expect(token.length).toBeGreaterThanOrEqual(16);
        expect(token).not.toBe(secret.stringData?.FIELDOPS_ADMIN_SECRET);
      }
    },
  );

  test('the Ingress routes only the public surfaces: never /admin/v1 or /metrics', () => {
    for (const profile of ['production'] as const) {
      const paths = rendered(profile)
        .all('Ingress')
        .flatMap((ingress) => ingress.spec!.rules!.flatMap((rule) => rule.http!.paths.map((p) => p.path)));
      expect(paths.sort()).toEqual(['/api', '/client', '/console']);
    }
  });

  test('production: the gateway believes X-Forwarded-For only from the trusted proxies', async () => {
    expect(gatewayEnv(rendered('production'), 'FIELDOPS_TRUSTED_PROXIES')).toBe('10.0.0.0/8');
    const release = await render({
      values: merge(INLINE_CREDENTIALS, { gateway: { trustedProxies: ['10.42.0.0/16', 'fd00::/8'] } }),
    });
    expect(gatewayEnv(release, 'FIELDOPS_TRUSTED_PROXIES')).toBe('10.42.0.0/16,fd00::/8');
    // No proxies named: the socket's address counts, and no other workload gets the variable.
    expect(
      gatewayEnv(rendered('defaults with inline credentials'), 'FIELDOPS_TRUSTED_PROXIES'),
    ).toBeUndefined();
    for (const deployment of rendered('production').all('Deployment')) {
      const names = (deployment.spec!.template.spec!.containers[0]!.env ?? []).map((e) => e.name);
      if (deployment.metadata!.name !== fullName('gateway'))
        expect(names).not.toContain('FIELDOPS_TRUSTED_PROXIES');
    }
  });

  test('production: TLS at the Ingress, which sends to the gateway Service', () => {
    const release = rendered('production');
    const [ingress] = release.all('Ingress');
    expect(ingress!.spec!.tls?.[0]?.hosts).toEqual(['api.fieldops.example']);
    const backend = ingress!.spec!.rules![0]!.http!.paths[0]!.backend.service!;
    expect(backend.name).toBe(fullName('gateway'));
    const gatewayService = release.one('Service', fullName('gateway'));
    expect(gatewayService.spec!.ports!.map((p) => p.name)).toContain(backend.port!.name);
  });

  test('production: the gateway, crm, measurements and capture workers scale on CPU; only the ingress controller reaches the gateway', () => {
    const release = rendered('production');
    const scaled = release.all('HorizontalPodAutoscaler').map((h) => h.spec!.scaleTargetRef.name);
    expect(scaled.sort()).toEqual([
      fullName('capture-worker'),
      fullName('crm'),
      fullName('gateway'),
      fullName('measurements'),
    ]);
    const gateway = release.one('Deployment', fullName('gateway'));
    expect(allowedSources(release, gateway, 'http')).toEqual([
      { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } },
    ]);
    // Metrics: the monitoring namespace only, on every workload.
    for (const deployment of release.all('Deployment')) {
      expect(allowedSources(release, deployment, 'ops')).toEqual([
        { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } },
      ]);
    }
  });

  test('production: every process reaches Kafka over TLS with SASL credentials from the Secret', () => {
    const release = rendered('production');
    const config = release.all('ConfigMap')[0]!.data!;
    expect(config).toMatchObject({ KAFKA_SSL: 'true', KAFKA_SASL_MECHANISM: 'scram-sha-512' });
    for (const deployment of release.all('Deployment')) {
      for (const key of ['KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD']) {
        expect(env(mainContainer(deployment), key)?.valueFrom?.secretKeyRef).toEqual({
          name: 'fieldops-secrets',
          key,
        });
      }
    }
    // Without SASL, no process is handed Kafka credentials.
    for (const deployment of rendered('small').all('Deployment')) {
      expect(env(mainContainer(deployment), 'KAFKA_SASL_PASSWORD')).toBeUndefined();
    }
  });

  test('small and production use the Secret the platform manages; defaults create one', () => {
    expect(rendered('small').all('Secret')).toEqual([]);
    expect(rendered('production').all('Secret')).toEqual([]);
    const secret = rendered('defaults with inline credentials').one('Secret', `${RELEASE}-fieldops`);
    expect(Object.keys(secret.stringData!).sort()).toEqual([
      'FIELDOPS_ADMIN_SECRET',
      'FIELDOPS_CONTEXT_PUBLIC_KEY',
      'FIELDOPS_CONTEXT_SIGNING_KEY',
      'FIELDOPS_METRICS_TOKEN',
      'MONGODB_URI',
      'REDIS_URL',
    ]);
  });

  test('each process gets only the credentials it uses', () => {
    const release = rendered('defaults with inline credentials');
    const refs = (component: string) =>
      (mainContainer(release.one('Deployment', fullName(component))).env ?? []).filter(
        (e) => e.valueFrom?.secretKeyRef && !e.valueFrom.secretKeyRef.optional,
      );
    const secretKeys = (component: string) =>
      refs(component)
        .filter((e) => e.valueFrom!.secretKeyRef!.name === `${RELEASE}-fieldops`)
        .map((e) => e.name);
    // FIELDOPS_METRICS_TOKEN: every process, for its /metrics. Only the gateway can sign request
    // contexts; every process verifies them.
    expect(secretKeys('gateway')).toEqual([
      'FIELDOPS_METRICS_TOKEN',
      'MONGODB_URI',
      'REDIS_URL',
      'FIELDOPS_ADMIN_SECRET',
      'FIELDOPS_CONTEXT_PUBLIC_KEY',
      'FIELDOPS_CONTEXT_SIGNING_KEY',
    ]);
    expect(secretKeys('crm')).toEqual([
      'FIELDOPS_METRICS_TOKEN',
      'MONGODB_URI',
      'FIELDOPS_CONTEXT_PUBLIC_KEY',
    ]);
    expect(secretKeys('audit')).toEqual([
      'FIELDOPS_METRICS_TOKEN',
      'MONGODB_URI',
      'FIELDOPS_CONTEXT_PUBLIC_KEY',
    ]);
    // Its own certificate: each kind reads its Secret, cert-manager's keys, and no other kind's.
    for (const component of ['gateway', 'crm', 'capture-worker']) {
      expect(
        refs(component)
          .filter((e) => e.name.startsWith('FIELDOPS_TLS_'))
          .map((e) => [e.name, e.valueFrom!.secretKeyRef!.name, e.valueFrom!.secretKeyRef!.key]),
      ).toEqual([
        ['FIELDOPS_TLS_CA', `${fullName('tls')}-${component}`, 'ca.crt'],
        ['FIELDOPS_TLS_CERT', `${fullName('tls')}-${component}`, 'tls.crt'],
        ['FIELDOPS_TLS_KEY', `${fullName('tls')}-${component}`, 'tls.key'],
      ]);
    }
  });
});

describe('the index migration Job', () => {
  const job = (name: RenderName) => rendered(name).one('Job', fullName('migrate'));
  const pod = (name: RenderName) => job(name).spec!.template.spec!;
  const hook = (metadata: { annotations?: Record<string, string> }) => ({
    hook: metadata.annotations?.['helm.sh/hook'],
    deletePolicy: metadata.annotations?.['helm.sh/hook-delete-policy'],
    weight: Number(metadata.annotations?.['helm.sh/hook-weight'] ?? 0),
  });

  test.each(ON_MONGODB)(
    '%s: runs store-migrate before install and upgrade, once, with the image and hardening of the Deployments',
    (name) => {
      const release = rendered(name);
      expect(release.all('Job')).toHaveLength(1);
      expect(hook(job(name).metadata!)).toMatchObject({
        hook: 'pre-install,pre-upgrade',
        deletePolicy: 'before-hook-creation,hook-succeeded',
      });
      const container = pod(name).containers[0]!;
      expect(pod(name).containers).toHaveLength(1);
      expect(container.command).toEqual(['node', '--enable-source-maps', '/app/dist/store-migrate.mjs']);
      // A bundle the image builds as a one-shot job, not a process kind with a Deployment.
      expect(Object.keys(JOBS)).toContain('store-migrate');
      expect(Object.keys(processKinds())).not.toContain('store-migrate');
      expect(release.all('Deployment').map(componentOf)).not.toContain('migrate');
      expect(container.args).toBeUndefined();
      expect(pod(name).restartPolicy).toBe('Never');
      expect(job(name).spec!.backoffLimit).toBeLessThanOrEqual(1);
      expect(job(name).spec!.activeDeadlineSeconds).toBeGreaterThan(0);

      const gateway = release.one('Deployment', fullName('gateway')).spec!.template.spec!;
      expect(container.image).toBe(gateway.containers[0]!.image);
      expect(pod(name).securityContext).toEqual(gateway.securityContext);
      expect(container.securityContext).toEqual(gateway.containers[0]!.securityContext);
      expect(container.securityContext).toMatchObject({ readOnlyRootFilesystem: true, runAsNonRoot: true });
      expect(pod(name).automountServiceAccountToken).toBe(false);
      expect(container.volumeMounts).toEqual([{ name: 'tmp', mountPath: '/tmp' }]);
      expect(container.resources?.limits?.memory).toBeDefined();
    },
  );

  test('with a Secret the platform manages, reads its MONGODB_URI and nothing else', () => {
    for (const name of ['small', 'production'] as const) {
      expect(env(pod(name).containers[0]!, 'MONGODB_URI')?.valueFrom?.secretKeyRef).toEqual({
        name: 'fieldops-secrets',
        key: 'MONGODB_URI',
      });
      const secrets = (pod(name).containers[0]!.env ?? []).filter((e) => e.valueFrom?.secretKeyRef);
      expect(secrets.map((e) => e.name)).toEqual(['MONGODB_URI']);
    }
  });

  test("with the chart's own Secret, a hook Secret holding only MONGODB_URI exists before the Job does", () => {
    const release = rendered('defaults with inline credentials');
    const ref = env(pod('defaults with inline credentials').containers[0]!, 'MONGODB_URI')?.valueFrom
      ?.secretKeyRef;
    // The release's Secret is created after pre-install hooks run, so the Job cannot read it then.
    expect(ref?.name).not.toBe(`${RELEASE}-fieldops`);
    const hookSecret = release.one('Secret', ref!.name!);
    expect(hookSecret.stringData).toEqual({ MONGODB_URI: INLINE_CREDENTIALS.secrets.mongodbUri });
    expect(hook(hookSecret.metadata!).hook).toBe('pre-install,pre-upgrade');
    expect(hook(hookSecret.metadata!).weight).toBeLessThan(
      hook(job('defaults with inline credentials').metadata!).weight,
    );
    // The chart's ServiceAccount does not exist yet at pre-install either.
    expect(pod('defaults with inline credentials').serviceAccountName).toBeUndefined();
  });

  test('drops an index only when the values name it, and can be turned off', async () => {
    const dropping = await render({
      files: ['values-production.yaml'],
      values: { migrations: { enabled: true, extraArgs: ['--drop', 'leads.order_createdAt'] } },
    });
    expect(dropping.one('Job', fullName('migrate')).spec!.template.spec!.containers[0]!.args).toEqual([
      '--drop',
      'leads.order_createdAt',
    ]);
    const off = await render({
      files: ['values-production.yaml'],
      values: { migrations: { enabled: false } },
    });
    expect(off.all('Job')).toEqual([]);
    const refused = await template({
      files: ['values-production.yaml'],
      values: { migrations: { enabled: true, extraArgs: ['--force'] } },
    });
    expect(refused.code).not.toBe(0);
  });
});

describe('the capture workers', () => {
  test('run as their own Deployment without a Service, scaled by their own HorizontalPodAutoscaler', () => {
    const release = rendered('everything, workers on their HPA');
    const workers = release.one('Deployment', fullName('capture-worker'));
    expect(mainContainer(workers).command).toContain('/app/dist/capture-worker.mjs');
    expect(env(mainContainer(workers), 'FIELDOPS_CAPTURE_WORKER_CONCURRENCY')?.value).toBe('2');
    expect(mainContainer(workers).ports!.map((p) => p.name)).toEqual(['ops']);
    expect(release.all('Service').map((s) => s.metadata!.name)).not.toContain(fullName('capture-worker'));
    const hpa = release.one('HorizontalPodAutoscaler', fullName('capture-worker'));
    expect(hpa.spec!.scaleTargetRef).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: workers.metadata!.name,
    });
    expect(hpa.spec).toMatchObject({ minReplicas: 2, maxReplicas: 40 });
    expect(release.all('ScaledObject')).toEqual([]);
  });

  test("get a grace period that is their readiness drain, their runs' drain time and the hand-back", () => {
    for (const name of ['production', 'small', 'defaults with inline credentials'] as const) {
      const workers = rendered(name).one('Deployment', fullName('capture-worker'));
      const container = mainContainer(workers);
      const readinessMs = Number(env(container, 'FIELDOPS_DRAIN_MS')?.value);
      const runsMs = Number(env(container, 'FIELDOPS_CAPTURE_WORKER_DRAIN_MS')?.value);
      const graceMs = workers.spec!.template.spec!.terminationGracePeriodSeconds! * 1000;
      expect(runsMs).toBeGreaterThan(0);
      // At least 10 s left, after both drains, to kill the engines and release their leases.
      expect(graceMs - readinessMs - runsMs).toBeGreaterThanOrEqual(10_000);
    }
    const production = rendered('production').one('Deployment', fullName('capture-worker'));
    expect(production.spec!.template.spec!.terminationGracePeriodSeconds).toBe(10 + 60 + 15);
  });

  test('refuse KEDA without the Prometheus that holds the waiting runs', async () => {
    const result = await template({
      values: merge(INLINE_CREDENTIALS, { captureWorkers: { keda: { enabled: true } } }),
    });
    expect(result.stderr).toContain('captureWorkers.keda.prometheus.serverAddress is required with KEDA');
  });

  test("with KEDA, scale on the runs waiting for a worker, their topic's lag and CPU (KEDA owns the HPA)", () => {
    const release = rendered('everything, workers on KEDA');
    const scaled = release.one('ScaledObject', fullName('capture-worker'));
    const brokers = release.all('ConfigMap')[0]!.data!.KAFKA_BROKERS;
    expect(scaled.spec!.scaleTargetRef.name).toBe(fullName('capture-worker'));
    expect(scaled.spec!.triggers[0]).toMatchObject({
      type: 'kafka',
      metadata: {
        bootstrapServers: brokers,
        consumerGroup: 'capture-reconstruction',
        topic: 'fieldops.capture.events',
        lagThreshold: '4',
        // The same TLS and SASL as the workers, with their credentials from the same Secret.
        tls: 'enable',
        sasl: 'scram_sha512',
      },
      authenticationRef: { name: fullName('kafka') },
    });
    // Lag stays near 0 while runs wait for a slot (their offsets are committed once tracked): the
    // runs no worker holds, as capture exports them, are what adds workers. CPU stays a trigger.
    expect(scaled.spec!.triggers.map((t) => t.type)).toEqual(['kafka', 'prometheus', 'cpu']);
    expect(scaled.spec!.triggers[1]).toMatchObject({
      type: 'prometheus',
      metadata: {
        serverAddress: 'http://prometheus.monitoring:9090',
        query: 'sum(fieldops_capture_runs_waiting)',
        threshold: '2',
      },
    });
    const auth = release.one('TriggerAuthentication', fullName('kafka'));
    expect(auth.spec!.secretTargetRef).toEqual([
      { parameter: 'username', name: 'fieldops-secrets', key: 'KAFKA_SASL_USERNAME' },
      { parameter: 'password', name: 'fieldops-secrets', key: 'KAFKA_SASL_PASSWORD' },
    ]);
    const hpaTargets = release.all('HorizontalPodAutoscaler').map((h) => h.spec!.scaleTargetRef.name);
    expect(hpaTargets).not.toContain(fullName('capture-worker'));
  });

  test('with a Kafka namespace, every process gets it and KEDA watches the prefixed group and topic', async () => {
    const base = everything(true);
    const release = await render({
      ...base,
      values: { ...base.values, config: { kafkaNamespace: 'staging' } },
    });
    expect(release.all('ConfigMap')[0]!.data!.KAFKA_NAMESPACE).toBe('staging');
    expect(release.one('ScaledObject', fullName('capture-worker')).spec!.triggers[0]!.metadata).toMatchObject(
      {
        consumerGroup: 'staging.capture-reconstruction',
        topic: 'staging.fieldops.capture.events',
      },
    );
    // Without one, the ConfigMap leaves the variable out (the platform's default: plain names).
    expect(rendered('production').all('ConfigMap')[0]!.data!.KAFKA_NAMESPACE).toBeUndefined();
  });
  test('with a Redis namespace, every process gets it; without one the plain keys stay', async () => {
    const base = everything(true);
    const release = await render({
      ...base,
      values: { ...base.values, config: { redisNamespace: 'staging' } },
    });
    expect(release.all('ConfigMap')[0]!.data!.REDIS_NAMESPACE).toBe('staging');
    expect(rendered('production').all('ConfigMap')[0]!.data!.REDIS_NAMESPACE).toBeUndefined();
  });
  test('the S3 checksum setting reaches every process, and is left to the adapter when empty', async () => {
    const release = await render({
      values: merge(INLINE_CREDENTIALS, { config: { s3: { checksums: 'when_required' } } }),
    });
    expect(release.all('ConfigMap')[0]!.data!.S3_CHECKSUMS).toBe('when_required');
    // Empty: the adapter's own default (when_supported on AWS, when_required with an endpoint).
    expect(rendered('production').all('ConfigMap')[0]!.data!.S3_CHECKSUMS).toBeUndefined();
  });
});

describe('the MongoDB bounds', () => {
  test('reach every process from the values, with the documented defaults in each profile', async () => {
    const release = await render({
      values: merge(INLINE_CREDENTIALS, {
        config: { mongodb: { operationTimeoutMs: 8000, maxPoolSize: 40, waitQueueTimeoutMs: 500 } },
      }),
    });
    expect(release.all('ConfigMap')[0]!.data).toMatchObject({
      FIELDOPS_MONGODB_OPERATION_TIMEOUT_MS: '8000',
      FIELDOPS_MONGODB_MAX_POOL_SIZE: '40',
      FIELDOPS_MONGODB_WAIT_QUEUE_TIMEOUT_MS: '500',
    });
    for (const profile of ['small', 'production'] as const) {
      expect(rendered(profile).all('ConfigMap')[0]!.data).toMatchObject({
        FIELDOPS_MONGODB_OPERATION_TIMEOUT_MS: '5000',
        FIELDOPS_MONGODB_MAX_POOL_SIZE: '20',
        FIELDOPS_MONGODB_WAIT_QUEUE_TIMEOUT_MS: '2000',
      });
    }
  });

  test('refuses a pool of no connections', async () => {
    const result = await template({
      values: merge(INLINE_CREDENTIALS, { config: { mongodb: { maxPoolSize: 0 } } }),
    });
    expect(result.stderr).toMatch(/maxPoolSize/);
  });
});

describe('values.schema.json', () => {
  const refusals: [string, Record<string, unknown>, RegExp][] = [
    ['an unknown top-level key', { replicaCount: 3 }, /additional properties 'replicaCount' not allowed/],
    ['an unknown gateway key', { gateway: { replica: 3 } }, /additional properties 'replica' not allowed/],
    [
      'a service the chart does not know',
      { services: { billing: { enabled: true } } },
      /'billing' not allowed/,
    ],
    [
      'a misspelt KEDA setting',
      { captureWorkers: { keda: { lagTreshold: 5 } } },
      /'lagTreshold' not allowed/,
    ],
    ['a misspelt resource', { gateway: { resources: { requests: { cpus: 1 } } } }, /'cpus' not allowed/],
    [
      'a writable root filesystem',
      { containerSecurityContext: { readOnlyRootFilesystem: false } },
      /readOnlyRootFilesystem/,
    ],
    ['running as root', { podSecurityContext: { runAsNonRoot: false } }, /runAsNonRoot/],
    ['brokers that are not host:port', { config: { kafkaBrokers: 'kafka' } }, /kafkaBrokers/],
    ['a short admin secret', { secrets: { adminSecret: 'short' } }, /adminSecret/],
    [
      'a trusted proxy that is not an address',
      { gateway: { trustedProxies: ['ingress-nginx'] } },
      /trustedProxies/,
    ],
    [
      'a SASL mechanism Kafka clients here do not speak',
      { config: { kafkaSaslMechanism: 'gssapi' } },
      /kafkaSaslMechanism/,
    ],
    [
      'an S3 checksum mode the adapter does not know',
      { config: { s3: { checksums: 'always' } } },
      /checksums/,
    ],
    [
      'a Kafka namespace the platform refuses',
      { config: { kafkaNamespace: 'staging.eu' } },
      /kafkaNamespace/,
    ],
    ['a misspelt alert setting', { alerts: { lagMinimun: 5 } }, /'lagMinimun' not allowed/],
    ['an alert duration Prometheus would refuse', { alerts: { lagFor: '15 minutes' } }, /lagFor/],
    ['a worker image digest that is not one', { workerImage: { digest: 'latest' } }, /digest/],
    ['a misspelt worker image key', { workerImage: { repo: 'x' } }, /'repo' not allowed/],
    [
      'a NodeODM address that is not a URL',
      { config: { photogrammetry: { nodeodmUrl: 'nodeodm:3000' } } },
      /nodeodmUrl/,
    ],
    ['a misspelt engine', { config: { photogrammetry: { openmvg: true } } }, /'openmvg' not allowed/],
    [
      'a public S3 endpoint that is not a URL',
      { config: { s3: { publicEndpoint: 's3.example.com' } } },
      /publicEndpoint/,
    ],
    [
      'a scratch size that is not a quantity',
      { captureWorkers: { scratch: { sizeLimit: 'lots' } } },
      /sizeLimit/,
    ],
    ['a misspelt store key', { store: { embeded: true } }, /'embeded' not allowed/],
  ];

  test.each(refusals)('refuses %s', async (_what, values, message) => {
    const result = await template({ values: merge(INLINE_CREDENTIALS, values) });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("values don't meet the specifications of the schema");
    expect(result.stderr).toMatch(message);
  });

  test('sets additionalProperties: false on every object it describes', () => {
    const schema = JSON.parse(readFileSync(join(CHART, 'values.schema.json'), 'utf8')) as unknown;
    const open: string[] = [];
    const walk = (node: unknown, path: string) => {
      if (typeof node !== 'object' || node === null) return;
      const record = node as Record<string, unknown>;
      if ('properties' in record && record.additionalProperties !== false) open.push(path);
      for (const [key, child] of Object.entries(record)) walk(child, `${path}/${key}`);
    };
    walk(schema, '#');
    expect(open).toEqual([]);
  });

  test('names what is missing when no credentials are given', async () => {
    const result = await template({ values: { config: INLINE_CREDENTIALS.config } });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('secrets.mongodbUri is required (or set secrets.existingSecret');
    const noBrokers = await template({
      values: { config: { s3: INLINE_CREDENTIALS.config.s3 }, secrets: INLINE_CREDENTIALS.secrets },
    });
    expect(noBrokers.stderr).toContain('config.kafkaBrokers is required');
    const noSaslUser = await template({
      values: merge(INLINE_CREDENTIALS, { config: { kafkaSaslMechanism: 'plain' } }),
    });
    expect(noSaslUser.stderr).toContain(
      'secrets.kafkaSaslUsername is required with config.kafkaSaslMechanism',
    );
  });

  test('refuses the capture service without a bucket', async () => {
    const result = await template({
      values: merge(INLINE_CREDENTIALS, {
        config: { s3: { bucket: '' } },
        services: { capture: { enabled: true } },
      }),
    });
    expect(result.stderr).toContain('config.s3.bucket is required with the capture service or workers');
  });

  test('refuses a drain as long as the grace period', async () => {
    const result = await template({ values: merge(INLINE_CREDENTIALS, { drainSeconds: 30 }) });
    expect(result.stderr).toContain('drainSeconds must be less than terminationGracePeriodSeconds');
  });

  test('refuses a service enabled without a service it calls', async () => {
    const calls = callGraph();
    const [caller, targets] = Object.entries(calls)[0] ?? ['projects', ['crm']];
    const services = { [caller]: { enabled: true }, [targets[0]!]: { enabled: false } };
    const result = await template({ values: merge(INLINE_CREDENTIALS, { services }) });
    expect(result.stderr).toContain(`services.${caller} needs services.${targets[0]}`);
  });
});

describe('changes that must roll the pods', () => {
  const annotation = async (values: Record<string, unknown>, key: string) => {
    const release = await render({ values: merge(INLINE_CREDENTIALS, values) });
    const deployment = release.one('Deployment', fullName('crm'));
    return deployment.spec!.template.metadata!.annotations![key];
  };

  test('a changed setting or chart-managed credential changes the pod template', async () => {
    const [config, configChanged, secret, secretRotated] = await Promise.all([
      annotation({}, 'checksum/config'),
      annotation({ config: { logLevel: 'debug' } }, 'checksum/config'),
      annotation({}, 'checksum/secret'),
      annotation(
        { secrets: { mongodbUri: 'mongodb://fieldops:rotated@mongo-0.mongo:27017/fieldops' } },
        'checksum/secret',
      ),
    ]);
    expect(config).toMatch(/^[a-f0-9]{64}$/);
    expect(configChanged).not.toBe(config);
    expect(secretRotated).not.toBe(secret);
  });
});

describe('the two images', () => {
  const appVersion = (parse(readFileSync(join(CHART, 'Chart.yaml'), 'utf8')) as { appVersion: string })
    .appVersion;

  test.each(Object.keys(ALL_RENDERS) as RenderName[])(
    '%s: the capture workers run the worker image (COLMAP), every other kind the app image',
    (name) => {
      for (const deployment of rendered(name).all('Deployment')) {
        const expected = kindOf(deployment).image === 'worker' ? 'fieldops-worker' : 'fieldops';
        expect(mainContainer(deployment).image).toBe(`ghcr.io/fieldops/${expected}:${appVersion}`);
      }
      expect(kindOf(rendered(name).one('Deployment', fullName('capture-worker'))).image).toBe('worker');
    },
  );

  test('workerImage takes its own repository, tag or digest; the migration Job runs the app image', async () => {
    const digest = `sha256:${'ab'.repeat(32)}`;
    const release = await render({
      values: merge(INLINE_CREDENTIALS, {
        image: { repository: 'registry.example.com/fieldops', tag: '1.4.0' },
        workerImage: { repository: 'registry.example.com/fieldops-worker', tag: '1.4.0', digest },
      }),
    });
    const images = Object.fromEntries(
      release.all('Deployment').map((d) => [componentOf(d), mainContainer(d).image]),
    );
    expect(images['capture-worker']).toBe(`registry.example.com/fieldops-worker@${digest}`);
    for (const [component, image] of Object.entries(images))
      if (component !== 'capture-worker') expect(image).toBe('registry.example.com/fieldops:1.4.0');
    // One pull policy for both images.
    const policies = new Set(release.all('Deployment').map((d) => mainContainer(d).imagePullPolicy));
    expect([...policies]).toEqual(['IfNotPresent']);
    const migrate = release.one('Job', fullName('migrate')).spec!.template.spec!.containers[0]!;
    expect(migrate.image).toBe('registry.example.com/fieldops:1.4.0');
    const tagged = await render({
      values: merge(INLINE_CREDENTIALS, { workerImage: { tag: '2.0.0-colmap' } }),
    });
    expect(mainContainer(tagged.one('Deployment', fullName('capture-worker'))).image).toBe(
      'ghcr.io/fieldops/fieldops-worker:2.0.0-colmap',
    );
  });
});

describe('the photogrammetry engines, declared once', () => {
  const engines = async (photogrammetry: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    configData(await render({ values: merge(INLINE_CREDENTIALS, { config: { photogrammetry }, ...extra }) }));
  const NODEODM = 'http://nodeodm.photogrammetry.svc:3000';

  test.each([
    ['COLMAP in the worker image (the default)', { colmap: true, nodeodmUrl: '' }, 'colmap'],
    ['NodeODM only', { colmap: false, nodeodmUrl: NODEODM }, 'nodeodm'],
    ['both', { colmap: true, nodeodmUrl: NODEODM }, 'colmap,nodeodm'],
    ['neither: presign refuses photos', { colmap: false, nodeodmUrl: '' }, 'none'],
  ])('%s: FIELDOPS_PHOTOGRAMMETRY_ENGINES is %s', async (_what, photogrammetry, expected) => {
    const data = await engines(photogrammetry);
    expect(data.FIELDOPS_PHOTOGRAMMETRY_ENGINES).toBe(expected);
    expect(data.FIELDOPS_NODEODM_URL).toBe(expected.includes('nodeodm') ? NODEODM : undefined);
  });

  test('without capture workers nothing can reconstruct, so no engine is declared', async () => {
    const data = await engines({ colmap: true, nodeodmUrl: NODEODM }, { captureWorkers: { enabled: false } });
    expect(data.FIELDOPS_PHOTOGRAMMETRY_ENGINES).toBe('none');
    expect(data.FIELDOPS_NODEODM_URL).toBeUndefined();
  });

  test.each(Object.keys(ALL_RENDERS) as RenderName[])(
    '%s: capture and the workers read the one declaration from the ConfigMap, and no pod overrides it',
    (name) => {
      const release = rendered(name);
      expect(configData(release).FIELDOPS_PHOTOGRAMMETRY_ENGINES).toBe('colmap');
      for (const component of ['capture', 'capture-worker']) {
        const container = mainContainer(release.one('Deployment', fullName(component)));
        expect(container.envFrom).toEqual([
          { configMapRef: { name: release.all('ConfigMap')[0]!.metadata!.name } },
        ]);
      }
      for (const deployment of release.all('Deployment')) {
        const names = (mainContainer(deployment).env ?? []).map((e) => e.name);
        expect(names).not.toContain('FIELDOPS_PHOTOGRAMMETRY_ENGINES');
        expect(names).not.toContain('FIELDOPS_NODEODM_URL');
      }
    },
  );
});

describe('scratch volumes, sized where they are used', () => {
  test.each(Object.keys(ALL_RENDERS) as RenderName[])(
    '%s: exactly the kinds topology.yaml gives scratch get a scratch emptyDir at FIELDOPS_SCRATCH_DIR',
    (name) => {
      const withScratch = [];
      for (const deployment of rendered(name).all('Deployment')) {
        const scratchDir = env(mainContainer(deployment), 'FIELDOPS_SCRATCH_DIR')?.value;
        if (!kindOf(deployment).scratch) {
          expect([scratchDir, volume(deployment, 'scratch')]).toEqual([undefined, undefined]);
          continue;
        }
        withScratch.push(componentOf(deployment));
        expect(mount(deployment, 'scratch')?.mountPath).toBe('/var/scratch');
        expect(scratchDir).toBe('/var/scratch');
        expect(volume(deployment, 'scratch')?.emptyDir?.sizeLimit).toMatch(/Gi$/);
      }
      expect(withScratch.sort()).toEqual(['capture-worker', 'exports']);
    },
  );

  test('each is as large as its values say: 10Gi and 50Gi by default, 2Gi and 10Gi in values-small', async () => {
    const sizes = (release: Rendered) => [
      volume(release.one('Deployment', fullName('exports')), 'scratch')?.emptyDir?.sizeLimit,
      volume(release.one('Deployment', fullName('capture-worker')), 'scratch')?.emptyDir?.sizeLimit,
    ];
    expect(sizes(rendered('defaults with inline credentials'))).toEqual(['10Gi', '50Gi']);
    expect(sizes(rendered('production'))).toEqual(['10Gi', '50Gi']);
    expect(sizes(rendered('small'))).toEqual(['2Gi', '10Gi']);
    const sized = await render({
      values: merge(INLINE_CREDENTIALS, {
        services: { exports: { scratch: { sizeLimit: '25Gi' } } },
        captureWorkers: { scratch: { sizeLimit: '200Gi' } },
      }),
    });
    expect(sizes(sized)).toEqual(['25Gi', '200Gi']);
  });

  test('refuses scratch on a kind that has none, and a scratch kind without a size', async () => {
    const ignored = await template({
      values: merge(INLINE_CREDENTIALS, { services: { crm: { scratch: { sizeLimit: '5Gi' } } } }),
    });
    expect(ignored.code).not.toBe(0);
    expect(ignored.stderr).toContain(
      'services.crm.scratch is set, but crm gets no scratch volume (topology.yaml: scratch: false)',
    );
    // null removes the default, as `--set services.exports.scratch=null` would.
    const unsized = await template({
      values: merge(INLINE_CREDENTIALS, { services: { exports: { scratch: null } } }),
    });
    expect(unsized.code).not.toBe(0);
    expect(unsized.stderr).toContain(
      'services.exports.scratch.sizeLimit is required: exports stages large files on a scratch volume',
    );
  });
});

describe('the public S3 endpoint', () => {
  test('presigned URLs get their own endpoint: values-small names a placeholder beside its in-cluster MinIO', async () => {
    expect(configData(rendered('small'))).toMatchObject({
      S3_ENDPOINT: 'http://minio.fieldops-data.svc.cluster.local:9000',
      S3_PUBLIC_ENDPOINT: 'https://s3.fieldops.example',
    });
    // AWS (production) needs neither.
    expect(configData(rendered('production')).S3_ENDPOINT).toBeUndefined();
    expect(configData(rendered('production')).S3_PUBLIC_ENDPOINT).toBeUndefined();
    const release = await render({
      values: merge(INLINE_CREDENTIALS, {
        config: { s3: { endpoint: 'http://minio.data:9000', publicEndpoint: 'https://blobs.example.com' } },
      }),
    });
    expect(configData(release).S3_PUBLIC_ENDPOINT).toBe('https://blobs.example.com');
  });

  test.each([
    'http://minio:9000',
    'http://minio.fieldops-data.svc:9000',
    'http://minio.fieldops-data.svc.cluster.local:9000',
    'https://MinIO.Data.SVC.Cluster.Local./',
  ])('refuses %s without a publicEndpoint: clients could not reach it', async (endpoint) => {
    const result = await template({
      values: merge(INLINE_CREDENTIALS, { config: { s3: { endpoint, publicEndpoint: '' } } }),
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(
      `config.s3.publicEndpoint is required with the capture or exports service: config.s3.endpoint (${endpoint}) names a host only the cluster resolves`,
    );
  });

  test('values-small without its publicEndpoint is refused', async () => {
    const result = await template({
      files: ['values-small.yaml'],
      values: { config: { s3: { publicEndpoint: '' } } },
    });
    expect(result.stderr).toContain('config.s3.publicEndpoint is required');
  });

  test('accepts an endpoint clients can reach, and an in-cluster one when nothing presigns', async () => {
    const outside = await template({
      values: merge(INLINE_CREDENTIALS, {
        config: { s3: { endpoint: 'https://s3.eu-central-1.wasabisys.com' } },
      }),
    });
    expect(outside.code).toBe(0);
    const nothingPresigns = await template({
      values: merge(INLINE_CREDENTIALS, {
        config: { s3: { endpoint: 'http://minio:9000' } },
        services: { capture: { enabled: false }, exports: { enabled: false } },
        captureWorkers: { enabled: false },
      }),
    });
    expect(nothingPresigns.stderr).toBe('');
    expect(nothingPresigns.code).toBe(0);
  });
});

describe('the gRPC deadline', () => {
  test.each(Object.keys(ALL_RENDERS) as RenderName[])(
    '%s: 10 s, above the store operations it waits on (5 s)',
    (name) => {
      const data = configData(rendered(name));
      expect(data.FIELDOPS_GRPC_DEADLINE_MS).toBe('10000');
      expect(Number(data.FIELDOPS_GRPC_DEADLINE_MS)).toBeGreaterThan(
        Number(data.FIELDOPS_MONGODB_OPERATION_TIMEOUT_MS),
      );
    },
  );

  test.each([
    [5000, 5000],
    [3000, 5000],
  ])('refuses a deadline of %i ms with operations of %i ms', async (grpcDeadlineMs, operationTimeoutMs) => {
    const result = await template({
      values: merge(INLINE_CREDENTIALS, { config: { grpcDeadlineMs, mongodb: { operationTimeoutMs } } }),
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(
      `config.grpcDeadlineMs (${grpcDeadlineMs}) must be greater than config.mongodb.operationTimeoutMs (${operationTimeoutMs})`,
    );
  });

  test('accepts a deadline just above the operations', async () => {
    const release = await render({
      values: merge(INLINE_CREDENTIALS, {
        config: { grpcDeadlineMs: 8001, mongodb: { operationTimeoutMs: 8000 } },
      }),
    });
    expect(configData(release).FIELDOPS_GRPC_DEADLINE_MS).toBe('8001');
  });
});

describe('the embedded store (store.embedded)', () => {
  const release = () => rendered('small with the embedded store');
  const holdsStore = (d: IDeployment) => kindOf(d).secretKeys.includes('MONGODB_URI');

  test('no Deployment reads MONGODB_URI, and no migration Job is rendered', () => {
    for (const deployment of release().all('Deployment'))
      expect(env(mainContainer(deployment), 'MONGODB_URI')).toBeUndefined();
    expect(release().all('Job')).toEqual([]);
  });

  test('each store-holding kind keeps its store on a data emptyDir at FIELDOPS_DATA_DIR; the workers hold none', () => {
    const holding = [];
    for (const deployment of release().all('Deployment')) {
      const dataDir = env(mainContainer(deployment), 'FIELDOPS_DATA_DIR')?.value;
      if (!holdsStore(deployment)) {
        expect([dataDir, volume(deployment, 'data'), deployment.spec!.strategy!.type]).toEqual([
          '/tmp/fieldops',
          undefined,
          'RollingUpdate',
        ]);
        continue;
      }
      holding.push(componentOf(deployment));
      expect(dataDir).toBe('/var/lib/fieldops');
      expect(mount(deployment, 'data')?.mountPath).toBe('/var/lib/fieldops');
      expect(volume(deployment, 'data')).toEqual({ name: 'data', emptyDir: { sizeLimit: '1Gi' } });
      // One pod at a time: the old pod stops before the new one starts.
      expect(deployment.spec!.strategy).toEqual({ type: 'Recreate' });
      expect(deployment.spec!.replicas).toBe(1);
    }
    expect(holding).toHaveLength(TOPOLOGY.length - 1);
    expect(holding).not.toContain('capture-worker');
  });

  test.each(ON_MONGODB)(
    '%s: without it, FIELDOPS_DATA_DIR is scratch under /tmp and no pod has a data volume',
    (name) => {
      for (const deployment of rendered(name).all('Deployment')) {
        expect(env(mainContainer(deployment), 'FIELDOPS_DATA_DIR')?.value).toBe('/tmp/fieldops');
        expect(volume(deployment, 'data')).toBeUndefined();
        expect(deployment.spec!.strategy!.type).toBe('RollingUpdate');
      }
    },
  );

  test('its size comes from store.sizeLimit, and the chart-made Secret needs no mongodbUri', async () => {
    const { mongodbUri: _unused, ...secrets } = INLINE_CREDENTIALS.secrets;
    const trial = await render({
      files: ['values-small.yaml'],
      values: { store: { embedded: true, sizeLimit: '4Gi' }, secrets: { existingSecret: '', ...secrets } },
    });
    for (const deployment of trial.all('Deployment'))
      if (holdsStore(deployment)) expect(volume(deployment, 'data')?.emptyDir?.sizeLimit).toBe('4Gi');
    // Only the release's Secret: no hook Secret for a migration that does not run.
    expect(trial.all('Secret').map((s) => s.metadata!.name)).toEqual([`${RELEASE}-fieldops`]);
    expect(Object.keys(trial.one('Secret', `${RELEASE}-fieldops`).stringData!).sort()).toEqual([
      'FIELDOPS_ADMIN_SECRET',
      'FIELDOPS_CONTEXT_PUBLIC_KEY',
      'FIELDOPS_CONTEXT_SIGNING_KEY',
      'FIELDOPS_METRICS_TOKEN',
      'REDIS_URL',
    ]);
  });

  test('the capture workers, which hold no store, may still run several replicas', async () => {
    const workers = await render({
      files: ['values-small.yaml'],
      values: { store: { embedded: true }, captureWorkers: { replicas: 3 } },
    });
    expect(workers.one('Deployment', fullName('capture-worker')).spec!.replicas).toBe(3);
  });

  test.each([
    [
      'two crm replicas',
      'values-small.yaml',
      { services: { crm: { replicas: 2 } } },
      'services.crm must run one replica without autoscaling (it has replicas: 2, autoscaling: off)',
    ],
    [
      'an autoscaled gateway',
      'values-small.yaml',
      { gateway: { autoscaling: { enabled: true } } },
      'gateway must run one replica without autoscaling (it has replicas: 1, autoscaling: on)',
    ],
    [
      'the production profile',
      'values-production.yaml',
      {},
      'gateway must run one replica without autoscaling (it has replicas: 3, autoscaling: on)',
    ],
  ])('refuses %s: each pod would hold its own copy of the records', async (_what, file, values, message) => {
    const result = await template({ files: [file], values: merge({ store: { embedded: true } }, values) });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`store.embedded keeps each store in its pod, so ${message}`);
    expect(result.stderr).toContain('each pod would hold its own copy of the records');
  });

  test('NOTES.txt warns that the records are lost with the pod, and only then', async () => {
    expect(await notes(EMBEDDED)).toMatch(/WARNING: store\.embedded is on[\s\S]*LOST WITH THE POD/);
    expect(await notes(SHIPPED.small)).not.toContain('store.embedded');
  });
});

/** The value of one environment variable of the gateway's container, or undefined. */
function gatewayEnv(release: Rendered, name: string): string | undefined {
  const gateway = release.one('Deployment', fullName('gateway'));
  return gateway.spec!.template.spec!.containers[0]!.env?.find((e) => e.name === name)?.value;
}

function merge(base: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    const current = out[key];
    out[key] = isRecord(current) && isRecord(value) ? merge(current, value) : value;
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

describe('least privilege for the stores (secrets.perServiceCredentials)', () => {
  const STORE_KINDS = TOPOLOGY.filter((kind) => kind.secretKeys.includes('MONGODB_URI')).map(
    (k) => k.component,
  );
  const perService = merge(INLINE_CREDENTIALS, {
    config: { kafkaSaslMechanism: 'scram-sha-512' },
    secrets: {
      kafkaSaslUsername: 'keda',
      kafkaSaslPassword: 'keda-pw',
      perServiceCredentials: true,
      serviceMongodbUris: Object.fromEntries(
        STORE_KINDS.map((kind) => [
          kind,
          `mongodb://${kind}:pw@mongo-0.mongo:27017/fieldops?authSource=admin`,
        ]),
      ),
      serviceKafkaSasl: Object.fromEntries(
        TOPOLOGY.map((kind) => [
          kind.component,
          { username: kind.component, password: `${kind.component}-pw` },
        ]),
      ),
    },
  });

  test('each kind reads its own MongoDB user and Kafka principal; the migration Job the migration user', async () => {
    const release = await render({ values: perService });
    const keyOf = (component: string, name: string) =>
      env(mainContainer(release.one('Deployment', fullName(component))), name)?.valueFrom?.secretKeyRef?.key;
    const rendered = release.all('Deployment').map(componentOf);
    expect(rendered).toEqual(expect.arrayContaining(['gateway', 'crm', 'capture-worker']));
    for (const component of STORE_KINDS.filter((kind) => rendered.includes(kind))) {
      expect(keyOf(component, 'MONGODB_URI')).toBe(`MONGODB_URI_${component.toUpperCase()}`);
    }
    expect(keyOf('capture-worker', 'KAFKA_SASL_USERNAME')).toBe('KAFKA_SASL_USERNAME_CAPTURE_WORKER');
    expect(keyOf('crm', 'KAFKA_SASL_PASSWORD')).toBe('KAFKA_SASL_PASSWORD_CRM');
    const secret = release.one('Secret', `${RELEASE}-fieldops`).stringData!;
    expect(secret['MONGODB_URI_CRM']).toContain('mongodb://crm:pw@');
    expect(secret['KAFKA_SASL_USERNAME_CAPTURE_WORKER']).toBe('capture-worker');
    const job = release.one('Job', fullName('migrate')).spec!.template.spec!.containers[0]!;
    expect(env(job, 'MONGODB_URI')?.valueFrom?.secretKeyRef?.key).toBe('MONGODB_URI');
  });

  test('a kind without its own credentials is refused, naming the value', async () => {
    const uris = { ...((perService['secrets'] as Record<string, unknown>)['serviceMongodbUris'] as object) };
    delete (uris as Record<string, unknown>)['crm'];
    const missing = {
      ...perService,
      secrets: { ...(perService['secrets'] as object), serviceMongodbUris: uris },
    };
    const result = await template({ values: missing });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('secrets.serviceMongodbUris.crm is required');
  });
});

describe('the alert rules (alerts.enabled)', () => {
  const ALERTS = {
    files: ['values-production.yaml'],
    values: {
      alerts: { enabled: true, labels: { release: 'kube-prometheus-stack' } },
      config: { kafkaNamespace: 'prod' },
    },
  };
  let rules: Record<string, { expr: string; for?: string; labels?: Record<string, string> }>;
  let release: Rendered;
  beforeAll(async () => {
    release = await render(ALERTS);
    const [rule] = release.all('PrometheusRule');
    rules = Object.fromEntries(
      (rule?.spec?.groups ?? []).flatMap((group) =>
        (group.rules ?? []).map((r) => [
          r.alert ?? '',
          { expr: String(r.expr), for: r.for, labels: r.labels },
        ]),
      ),
    );
  }, RENDER_TIMEOUT_MS);

  test('are off unless asked for', () => {
    for (const name of Object.keys(SHIPPED) as RenderName[])
      expect(rendered(name).all('PrometheusRule')).toEqual([]);
  });

  test('carry the labels the Prometheus picks rules by', () => {
    const [rule] = release.all('PrometheusRule');
    expect(rule?.metadata?.labels).toMatchObject({
      release: 'kube-prometheus-stack',
      'app.kubernetes.io/part-of': 'fieldops',
    });
  });

  test('fire on a dead-letter topic of this deployment that holds records', () => {
    const rule = rules['FieldopsDeadLetterTopicNotEmpty'];
    // The namespace's prefix, and PromQL's escaping of a regex dot inside a string.
    expect(rule?.expr).toContain('kafka_topic_partition_current_offset{topic=~"prod\\\\..*\\\\.dlq"}');
    expect(rule?.expr).toMatch(/ > 0$/);
    expect(rules['FieldopsEventsDeadLettered']?.expr).toContain(
      'increase(fieldops_event_dead_letters_total{namespace="fieldops"}[15m])',
    );
  });

  test('fire on consumer lag that keeps growing, not on lag alone', () => {
    const rule = rules['FieldopsConsumerLagGrowing'];
    expect(rule?.expr).toContain('deriv(kafka_consumergroup_lag{topic=~"prod\\\\..*"}[15m])) > 0');
    expect(rule?.expr).toContain('kafka_consumergroup_lag{topic=~"prod\\\\..*"}) > 100');
    expect(rule?.for).toBe('15m');
  });

  test("name only metrics the platform's registry serves, besides the Kafka exporter's", () => {
    const served = new Set(
      metricsRegistry.getMetricsAsArray().flatMap((metric) => [metric.name, `${metric.name}_total`]),
    );
    const named = Object.values(rules).flatMap((rule) => rule.expr.match(/\bfieldops_[a-z_]+/g) ?? []);
    expect(named.length).toBeGreaterThan(0);
    for (const name of named) expect(served).toContain(name);
  });
});
