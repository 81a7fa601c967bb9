// What the containerized topology (npm run cluster -- start --containers) makes of the chart: each
// Deployment's container exactly as rendered (command, environment with ConfigMap and Secret
// references resolved, user, read-only root, volumes, probes, limits), and the runc config that
// enforces it. The chart is rendered with the real helm and this machine's values; the running
// containers themselves are checked by test/cluster-containers (CI).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { imageForKind } from '../../scripts/image/images.mjs';
import { ociConfig, runtimeDefaultSeccomp } from '../../scripts/cluster/containers/oci-config.mjs';
import { podsOf, quantity, type ImageConfig } from '../../scripts/cluster/containers/pod-spec.mjs';
import {
  MACHINE_VALUES,
  renderChart,
  runValues,
  valuesText,
} from '../../scripts/cluster/containers/render.mjs';
import { grantsOf, IMAGE_PATH, nodeFlags } from '../../scripts/permissions.mjs';
import { readTopology } from '../../scripts/topology.mjs';

const IMAGE: ImageConfig = {
  env: { PATH: '/usr/local/bin:/usr/bin:/bin', NODE_ENV: 'production', HOST: '0.0.0.0' },
  user: '1000:1000',
  workingDir: '/app',
  entrypoint: ['node', '--enable-source-maps'],
  cmd: ['/app/dist/gateway.mjs'],
};
const S3 = {
  S3_ENDPOINT: 'http://127.0.0.1:9000',
  S3_BUCKET: 'fieldops',
  S3_ACCESS_KEY_ID: 'AKTEST',
  S3_SECRET_ACCESS_KEY: 'secret-of-the-run',
};

type Manifests = Awaited<ReturnType<typeof renderChart>>['manifests'];
let manifests: Manifests;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fieldops-containers-test-'));
  const values = join(dir, 'run-values.yaml');
  const run = runValues({
    tag: 'dev',
    kafkaPort: 39092,
    s3Env: S3,
    adminSecret: 'an-operator-secret-of-the-run',
    pki: {
      contextPublicKey: '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----\n',
      contextSigningKey: '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2Vw\n-----END PRIVATE KEY-----\n',
      certificates: Object.fromEntries(
        readTopology().map((kind) => [kind.component, { tlsCrt: 'crt', tlsKey: 'key', caCrt: 'ca' }]),
      ),
    },
    extraEnv: { FIELDOPS_BUDGET_EMAILS: '5', FIELDOPS_COLMAP_BIN: 'off' },
    workers: 2,
  });
  writeFileSync(values, valuesText(run));
  ({ manifests } = await renderChart([MACHINE_VALUES, values]));
  // A variable of this shell must never reach a container.
  process.env.FIELDOPS_SHELL_ONLY = 'leak';
  // A helm render on a loaded CI machine can take longer than the default 30 s (chart.test.ts).
}, 120_000);

const pods = () => podsOf(manifests, () => IMAGE);

test('ten containers of nine kinds, two capture workers, each from the image its kind runs', () => {
  const all = pods();
  expect(all).toHaveLength(10);
  expect(new Set(all.map((p) => p.component)).size).toBe(9);
  expect(all.filter((p) => p.component === 'capture-worker')).toHaveLength(2);
  for (const pod of all) {
    const kind = readTopology().find((k) => k.component === pod.component)!;
    expect({ pod: pod.name, image: pod.container.image }).toEqual({
      pod: pod.name,
      image: imageForKind(pod.component),
    });
    // Fenced by its kind's grants (node --permission), the embedded store's folders in the pod.
    const grants = grantsOf(kind, {
      code: ['/app/dist', '/app/node_modules'],
      dataDir: '/var/lib/fieldops',
      ...(kind.scratch ? { scratchDir: '/var/scratch' } : {}),
      awsConfig: '/home/node/.aws',
      path: IMAGE_PATH,
      embeddedStore: true,
    });
    expect(pod.container.argv).toEqual([
      'node',
      '--enable-source-maps',
      ...nodeFlags(grants),
      `/app/dist/${kind.process}.mjs`,
    ]);
  }
});

test('the environment is the chart’s, references resolved, and nothing of the shell', () => {
  const worker = pods().find((p) => p.component === 'capture-worker')!.container.env;
  expect(worker).toMatchObject({
    NODE_ENV: 'production',
    HOSTNAME: 'fieldops-capture-worker-0',
    S3_ENDPOINT: 'http://s3.fieldops-data:9000',
    S3_PUBLIC_ENDPOINT: 'http://127.0.0.1:9000',
    S3_SECRET_ACCESS_KEY: 'secret-of-the-run',
    FIELDOPS_PHOTOGRAMMETRY_ENGINES: 'colmap',
    FIELDOPS_SCRATCH_DIR: '/var/scratch',
    FIELDOPS_CAPTURE_ADDR: 'fieldops-capture:50051',
    FIELDOPS_BUDGET_EMAILS: '5',
    // A string helm's YAML 1.1 would read as a boolean, were it not quoted.
    FIELDOPS_COLMAP_BIN: 'off',
  });
  for (const pod of pods()) {
    expect(pod.container.env.FIELDOPS_SHELL_ONLY).toBeUndefined();
    // The embedded store: no MongoDB reference at all.
    expect(pod.container.env.MONGODB_URI).toBeUndefined();
  }
  const gateway = pods().find((p) => p.component === 'gateway')!.container.env;
  expect(gateway.FIELDOPS_ADMIN_SECRET).toBe('an-operator-secret-of-the-run');
  expect(gateway.REDIS_URL).toBe('redis://redis.fieldops-data:6379');
  // Only kinds that talk to the bucket get its credentials (topology.yaml `blobs`).
  const crm = pods().find((p) => p.component === 'crm')!.container.env;
  expect(crm.S3_SECRET_ACCESS_KEY).toBeUndefined();
});

test('a required Secret key that is missing stops the pod, as the kubelet refuses it', () => {
  const broken = structuredClone(manifests).map((m) =>
    m.kind === 'Secret' ? { ...m, stringData: { ...m.stringData, REDIS_URL: undefined } } : m,
  );
  expect(() => podsOf(broken, () => IMAGE)).toThrow(/REDIS_URL needs key REDIS_URL of fieldops/);
});

test('runAsNonRoot refuses a container that would run as root', () => {
  const root = structuredClone(manifests).map((m) => {
    if (m.kind !== 'Deployment') return m;
    m.spec.template.spec.securityContext.runAsUser = 0;
    return m;
  });
  expect(() => podsOf(root, () => IMAGE)).toThrow(/runAsNonRoot/);
});

test('volumes, probes and limits as declared; what only Kubernetes honours is named', () => {
  const worker = pods().find((p) => p.component === 'capture-worker')!;
  expect(worker.volumes).toEqual(
    expect.arrayContaining([
      { name: 'tmp', medium: 'Disk', sizeLimitBytes: quantity('256Mi') },
      { name: 'scratch', medium: 'Disk', sizeLimitBytes: quantity('4Gi') },
    ]),
  );
  expect(worker.container.mounts).toEqual(
    expect.arrayContaining([{ volume: 'scratch', path: '/var/scratch', readOnly: false }]),
  );
  expect(worker.container.probes.liveness).toMatchObject({ type: 'http', path: '/healthz', port: 9090 });
  expect(worker.container.probes.readiness).toMatchObject({ path: '/readyz', failureThreshold: 2 });
  expect(worker.container.resources.memoryLimitBytes).toBe(quantity('2Gi'));
  expect(worker.notHonoured).toContain('serviceAccountName (fieldops)');
  const crm = pods().find((p) => p.component === 'crm')!;
  expect(crm.volumes.map((v) => v.name)).toContain('data');
  expect(crm.container.env.FIELDOPS_DATA_DIR).toBe('/var/lib/fieldops');
});

test('the runc config enforces the security context and limits', () => {
  const pod = pods().find((p) => p.component === 'exports')!;
  const config = ociConfig({
    pod,
    rootfs: '/rootfs',
    netns: '/var/run/netns/x',
    volumeSources: Object.fromEntries(pod.volumes.map((v) => [v.name, `/pods/${v.name}`])),
    hostsFile: '/hosts',
    resolvFile: '/resolv',
    cgroupsPath: '/fieldops/x/exports',
  });
  expect(config.root).toEqual({ path: '/rootfs', readonly: true });
  expect(config.process.user).toEqual({ uid: 1000, gid: 1000, additionalGids: [1000] });
  expect(config.process.capabilities.effective).toEqual([]);
  expect(config.process.noNewPrivileges).toBe(true);
  expect(config.process.rlimits).toBeUndefined();
  expect(config.linux.resources.memory.limit).toBe(quantity('512Mi'));
  expect(config.linux.seccomp.defaultAction).toBe('SCMP_ACT_ERRNO');
  expect(config.linux.namespaces).toContainEqual({ type: 'network', path: '/var/run/netns/x' });
  expect(config.mounts).toContainEqual({
    destination: '/var/scratch',
    type: 'bind',
    source: '/pods/scratch',
    options: ['rbind', 'nosuid', 'nodev', 'rw'],
  });
});

test('RuntimeDefault keeps capability-gated syscalls out for a process holding none', () => {
  const none = runtimeDefaultSeccomp([]);
  const admin = runtimeDefaultSeccomp(['CAP_SYS_ADMIN']);
  const allowed = (profile: typeof none) =>
    new Set(
      profile.syscalls
        .filter((r: { action: string }) => r.action === 'SCMP_ACT_ALLOW')
        .flatMap((r: { names: string[] }) => r.names),
    );
  // containers-common allows bpf only to a holder of CAP_SYS_ADMIN, and refuses it to others.
  expect(allowed(none).has('bpf')).toBe(false);
  expect(allowed(admin).has('bpf')).toBe(true);
  expect(none.syscalls).toContainEqual(
    expect.objectContaining({ action: 'SCMP_ACT_ERRNO', names: expect.arrayContaining(['bpf']) }),
  );
  expect(allowed(none).has('read')).toBe(true);
});

test('quantities', () => {
  expect(quantity('512Mi')).toBe(512 * 2 ** 20);
  expect(quantity('250m')).toBeCloseTo(0.25);
  expect(quantity('1')).toBe(1);
  expect(quantity('1.5Gi')).toBe(1.5 * 2 ** 30);
  expect(() => quantity('lots')).toThrow(/not a Kubernetes quantity/);
});
