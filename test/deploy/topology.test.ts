// charts/fieldops/topology.yaml is the one list of process kinds and their wiring. The chart
// renders it, the local cluster (npm run cluster) runs it, the image bundles it, and each entry
// point reads only the addresses it gives: checked here, so none of them can drift from it.
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IContainer } from 'kubernetes-models/v1/Container';
import { SERVICE_ADDRESS_VARIABLES } from '@fieldops/gateway';
import { processKinds } from '../../scripts/build-bundles.mjs';
import { migrateStores } from '../../scripts/cluster/migrate.mjs';
import { clusterProcesses, processEnv } from '../../scripts/cluster/plan.mjs';
import { readTopology } from '../../scripts/topology.mjs';
import type { Rendered } from './chart-render.ts';
import { RELEASE, render, root } from './chart-render.ts';

const topology = readTopology();
const component = (name: string) => name.slice(`${RELEASE}-fieldops-`.length);
const addressesOf = (variables: string[]) =>
  variables.flatMap((name) => /^FIELDOPS_([A-Z]+)_ADDR$/.exec(name)?.[1]?.toLowerCase() ?? []).sort();

/** What the chart gives each Deployment's container, by component. */
function chartWiring(release: Rendered) {
  return Object.fromEntries(
    release.all('Deployment').map((deployment) => {
      const container: IContainer = deployment.spec!.template.spec!.containers[0]!;
      const env = container.env ?? [];
      // The main Secret's keys; the kind's certificate Secret (FIELDOPS_TLS_*) is checked in chart.test.ts.
      const secretKeys = env
        .filter((e) => e.valueFrom?.secretKeyRef && !e.valueFrom.secretKeyRef.optional)
        .map((e) => e.name)
        .filter((name) => !name.startsWith('FIELDOPS_TLS_'));
      return [
        component(deployment.metadata!.name!),
        {
          process: /\/app\/dist\/(.+)\.mjs$/.exec(container.command!.at(-1)!)![1],
          dials: addressesOf(env.map((e) => e.name)),
          secretKeys,
          blobs: env.some((e) => e.name === 'S3_SECRET_ACCESS_KEY'),
          serves: (container.ports ?? []).map((p) => p.name).filter((name) => name !== 'ops'),
        },
      ];
    }),
  );
}

/**
 * The same, for the processes `npm run cluster` starts, from the environment it gives each with
 * the settings a real run has: `mongodbUri` only when MONGODB_URI is set (else every service keeps
 * its embedded store), the Redis URL and operator secret it always passes. Only addresses are
 * stand-ins: the ports a run picks.
 */
function clusterWiring(mongodbUri: string | undefined) {
  const ports = Object.fromEntries(
    clusterProcesses().map((p, i) => [p.name, { port: 40_000 + i, opsPort: 41_000 + i }]),
  );
  const shared = {
    env: {},
    host: '127.0.0.1',
    dataDir: '/tmp/cluster',
    kafka: { brokers: '127.0.0.1:9092' },
    s3Env: { S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' },
    ...(mongodbUri ? { mongodbUri } : {}),
    redisUrl: 'redis://127.0.0.1:6379',
    adminSecret: 'a-secret-of-sixteen-plus',
    pki: { dir: '/tmp/cluster/pki', contextPublicKey: 'public', contextSigningKey: 'signing' },
  };
  return clusterProcesses().map((planned) => {
    const env = processEnv(planned, shared, ports);
    return {
      name: planned.name,
      component: planned.kind.component,
      process: planned.kind.process,
      dials: addressesOf(Object.keys(env)),
      secretKeys: [
        'MONGODB_URI',
        'REDIS_URL',
        'FIELDOPS_ADMIN_SECRET',
        'FIELDOPS_CONTEXT_PUBLIC_KEY',
        'FIELDOPS_CONTEXT_SIGNING_KEY',
      ].filter((key) => key in env),
      blobs: 'S3_SECRET_ACCESS_KEY' in env,
      port: env.PORT,
    };
  });
}

let everything: Rendered;
// Renders on a loaded CI machine take longer than the default 30 s (see chart.test.ts).
beforeAll(async () => {
  // Every kind enabled, so the chart renders the whole list.
  everything = await render({ files: ['values-production.yaml'] });
}, 120_000);

test('the chart runs every kind of the list, each as the list wires it', () => {
  const chart = chartWiring(everything);
  expect(Object.keys(chart).sort()).toEqual(topology.map((kind) => kind.component).sort());
  for (const kind of topology) {
    expect({ component: kind.component, ...chart[kind.component] }).toEqual({
      component: kind.component,
      process: kind.process,
      dials: [...kind.dials].sort(),
      // every kind gets the bearer of its /metrics; production adds the Kafka SASL credentials
      secretKeys: [
        'FIELDOPS_METRICS_TOKEN',
        ...kind.secretKeys,
        'KAFKA_SASL_USERNAME',
        'KAFKA_SASL_PASSWORD',
      ],
      blobs: kind.blobs,
      serves: kind.serves === 'none' ? [] : [kind.serves],
    });
  }
});

/**
 * The cluster against the chart rendered as it would run with the same settings: without
 * MONGODB_URI the chart's embedded store (no MONGODB_URI reference anywhere), with it the chart's
 * default (every store-holding kind reads it from the Secret).
 */
test.each([
  ['without MONGODB_URI: embedded stores', undefined, { store: { embedded: true } }],
  ['with MONGODB_URI: every store on MongoDB', 'mongodb://db.example:27017', {}],
])(
  'the cluster command and the chart agree %s: same kinds, same wiring, same secret keys',
  async (_, uri, values) => {
    // One replica of each store-holding kind, as an embedded store requires (and the cluster runs).
    const single = Object.fromEntries(
      topology
        .filter((k) => k.component !== 'gateway' && k.component !== 'capture-worker')
        .map((k) => [k.component, { replicas: 1, autoscaling: { enabled: false } }]),
    );
    const release = await render({
      files: ['values-production.yaml'],
      values: { ...values, gateway: { replicas: 1, autoscaling: { enabled: false } }, services: single },
    });
    const chart = chartWiring(release);
    const cluster = clusterWiring(uri);
    expect([...new Set(cluster.map((p) => p.component))].sort()).toEqual(Object.keys(chart).sort());
    for (const p of cluster) {
      const deployment = chart[p.component]!;
      expect({ name: p.name, process: p.process, dials: p.dials, blobs: p.blobs }).toEqual({
        name: p.name,
        process: deployment.process,
        dials: deployment.dials,
        blobs: deployment.blobs,
      });
      expect({ name: p.name, secretKeys: p.secretKeys }).toEqual({
        name: p.name,
        // The local cluster leaves /metrics open on loopback (no FIELDOPS_METRICS_TOKEN): the chart only.
        secretKeys: deployment.secretKeys.filter(
          (key) => !key.startsWith('KAFKA_SASL') && key !== 'FIELDOPS_METRICS_TOKEN',
        ),
      });
      expect(p.port !== undefined).toBe(deployment.serves.length > 0);
    }
    // Two capture workers, one process of every other kind.
    expect(cluster.filter((p) => p.component === 'capture-worker').map((p) => p.name)).toEqual([
      'capture-worker-1',
      'capture-worker-2',
    ]);
    expect(cluster).toHaveLength(topology.length + 1);
  },
  120_000,
);

test('the image bundles exactly the kinds of the list, from their entry points', () => {
  expect(processKinds()).toEqual(Object.fromEntries(topology.map((kind) => [kind.process, kind.entry])));
  for (const kind of topology) expect(existsSync(join(root, kind.entry))).toBe(true);
});

test('no entry point reads the address of a service the list does not give it', () => {
  for (const kind of topology) {
    const source = readFileSync(join(root, kind.entry), 'utf8');
    const read = addressesOf([...source.matchAll(/FIELDOPS_[A-Z]+_ADDR/g)].map((m) => m[0]));
    for (const service of read)
      expect({ kind: kind.component, service, given: kind.dials.includes(service) }).toEqual({
        kind: kind.component,
        service,
        given: true,
      });
  }
  // The gateway reads every service's variable through SERVICE_ADDRESS_VARIABLES, not by name.
  const gateway = topology.find((kind) => kind.component === 'gateway')!;
  expect([...gateway.dials].sort()).toEqual(Object.keys(SERVICE_ADDRESS_VARIABLES).sort());
});

test('with MONGODB_URI the cluster runs the index migration first, and a failed one stops the start', async () => {
  // The job's source, as the cluster runs it (Node's type stripping).
  const dir = await mkdtemp(join(tmpdir(), 'fieldops-migrate-test-'));
  const log = join(dir, 'store-migrate.log');
  try {
    // Nothing answers on port 1: the migration fails, and says so, before any service would start.
    const mongodbUri = 'mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=500&connectTimeoutMS=500';
    await expect(migrateStores({ mongodbUri, log, cwd: root })).rejects.toThrow(
      /the index migration \(store-migrate\) ended with 1/,
    );
    expect(readFileSync(log, 'utf8')).toMatch(/store-migrate failed/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 120_000);
