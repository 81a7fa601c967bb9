// The chart's Deployments run as containers on this machine: `npm run cluster -- start|stop|status
// --containers`. The chart is rendered with `helm template` (the project's helm) and the values of
// this machine (machine-values.yaml plus the run's addresses and credentials); every replica of
// every Deployment runs from the built images (npm run image -- build) under runc, in a network
// namespace of its own, with exactly the container's command, environment (ConfigMap and Secret
// references resolved, nothing from this shell), user, read-only root, volumes (emptyDir limits
// enforced), resources and probes (pod-spec.mjs, oci-config.mjs), supervised as a kubelet would
// (supervisor.mjs). Kafka, S3 and Redis stay host processes, reached on the container network's
// host address. docs/deploy.md says what this mode proves and what it cannot.
import { spawn, execFile } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { URL } from 'node:url';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_TAG } from '../../image/images.mjs';
import { buildah } from '../../image/buildah.mjs';
import { mountImage } from '../../image/mount.mjs';
import { freePort, startBroker, stopBroker } from '../../kafka/broker.mjs';
import { adminSecretOf, checkRedis, makeClusterPki, pkiValues, s3Of } from '../host-services.mjs';
import { readTopology } from '../../topology.mjs';
import {
  createBridge,
  createPodNetwork,
  hostsFile,
  netnsPath,
  networkKey,
  planNetwork,
  teardownNetwork,
} from './network.mjs';
import { podsOf, servicesOf } from './pod-spec.mjs';
import { DATA_HOSTS, MACHINE_VALUES, renderChart, runValues, valuesText } from './render.mjs';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '..', '..', '..');
/** Ten containers loading their bundles on two busy cores, then electing Kafka group members. */
const DEFAULT_READY_TIMEOUT_MS = 300_000;

export const defaultContainersDir = () =>
  resolve(process.env.FIELDOPS_DATA_DIR ?? join(root, '.data', 'containers'));

function pathsOf(dataDir) {
  return {
    dataDir,
    plan: join(dataDir, 'plan.json'),
    status: join(dataDir, 'status.json'),
    values: join(dataDir, 'run-values.yaml'),
    rendered: join(dataDir, 'rendered.yaml'),
    hosts: join(dataDir, 'hosts'),
    resolv: join(dataDir, 'resolv.conf'),
    logs: join(dataDir, 'logs'),
    pods: join(dataDir, 'pods'),
    kafka: join(dataDir, 'kafka'),
    runc: join('/run', 'fieldops-runc', dataDir.replace(/[^A-Za-z0-9]+/g, '_').slice(-80)),
    adminSecret: join(dataDir, 'admin-secret'),
    supervisorLog: join(dataDir, 'logs', 'supervisor.log'),
  };
}

const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);

function alive(pid) {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// ---- images ---------------------------------------------------------------------------------------

/** Mounts each image the pods name; its root filesystem and config (ENV, USER, WORKDIR) for runc. */
async function mountImages(refs) {
  const images = {};
  for (const ref of new Set(refs)) {
    const mounted = await mountImage(ref).catch((err) => {
      throw new Error(
        `the image ${ref} is not here: build it with \`npm run image -- build\` (${err.message})`,
        {
          cause: err,
        },
      );
    });
    const env = Object.fromEntries(
      mounted.config.env.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    images[ref] = { rootfs: mounted.rootfs, mount: mounted.container, config: { ...mounted.config, env } };
  }
  return images;
}

// ---- start ------------------------------------------------------------------------------------------

/** The names every container resolves: each Service at its pod, the data services at the host. */
function namesOf(manifests, pods, network) {
  const names = {};
  for (const service of servicesOf(manifests, pods)) {
    // One replica per Service here (machine-values.yaml): its name is that pod's address.
    if (service.pods.length > 0) names[service.name] = network.addresses[service.pods[0]];
  }
  for (const host of Object.values(DATA_HOSTS)) names[host] = network.plan.hostAddress;
  return names;
}

/** Where the host's services answer for this run, and what the run's values file says. */
async function hostSettings(options, paths) {
  const env = options.hostEnv ?? process.env;
  const redisUrl = env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  await checkRedis(redisUrl);
  const s3 = await s3Of(env);
  const admin = adminSecretOf(env.FIELDOPS_ADMIN_SECRET, paths.dataDir);
  return { redisUrl, s3Env: s3.env, adminSecret: admin.secret, kafkaPort: await freePort() };
}

/** The chart rendered with this machine's values, the run's, then the caller's. */
async function renderRun(options, paths, host) {
  const values = runValues({
    tag: options.tag ?? DEFAULT_TAG,
    kafkaPort: host.kafkaPort,
    s3Env: host.s3Env,
    adminSecret: host.adminSecret,
    // A CA of the run's own (<dataDir>/pki, which the tests use too) and a certificate per kind.
    pki: pkiValues(
      makeClusterPki(paths.dataDir),
      readTopology().map((kind) => kind.component),
    ),
    extraEnv: options.env ?? {},
    redisNamespace: `containers-${networkKey(paths.dataDir)}`,
    workers: options.workers ?? 2,
  });
  writeFileSync(paths.values, valuesText(values), { mode: 0o600 });
  const rendered = await renderChart([MACHINE_VALUES, paths.values, ...(options.valuesFiles ?? [])]);
  writeFileSync(paths.rendered, rendered.text, { mode: 0o600 });
  return rendered.manifests;
}

/** Everything the supervisor needs, decided before anything is made. */
function planOf({ paths, host, images, pods }) {
  const network = planNetwork(
    paths.dataDir,
    pods.map((p) => p.name),
  );
  return {
    key: network.key,
    dataDir: paths.dataDir,
    runcRoot: paths.runc,
    podsDir: paths.pods,
    logsDir: paths.logs,
    statusFile: paths.status,
    hostsFile: paths.hosts,
    resolvFile: paths.resolv,
    images: Object.fromEntries(
      Object.entries(images).map(([ref, i]) => [ref, { rootfs: i.rootfs, mount: i.mount }]),
    ),
    pods,
    network: {
      plan: network,
      addresses: Object.fromEntries(pods.map((p) => [p.name, network.pods[p.name].address])),
      netnsPaths: Object.fromEntries(pods.map((p) => [p.name, netnsPath(network, p.name)])),
    },
    forwards: [],
    kafka: { startedDir: paths.kafka, port: host.kafkaPort },
    redisUrl: host.redisUrl,
    s3Env: host.s3Env,
    adminSecret: host.adminSecret,
  };
}

/**
 * Starts the containerized topology; resolves once every container is ready.
 * @param {import('./containers.d.mts').ContainerClusterOptions} options
 */
export async function startContainerCluster(options = {}) {
  const dataDir = resolve(options.dataDir ?? defaultContainersDir());
  const paths = pathsOf(dataDir);
  if (alive(readJson(paths.status)?.supervisorPid)) {
    throw new Error(
      `a containerized cluster of ${dataDir} is running (npm run cluster -- status --containers)`,
    );
  }
  mkdirSync(paths.logs, { recursive: true });
  const host = await hostSettings(options, paths);
  const manifests = await renderRun(options, paths, host);
  const deployments = manifests.filter((m) => m.kind === 'Deployment');
  const images = await mountImages(deployments.map((d) => d.spec.template.spec.containers[0].image));
  let plan;
  try {
    plan = planOf({ paths, host, images, pods: podsOf(manifests, (ref) => images[ref].config) });
  } catch (err) {
    // A pod the kubelet would refuse (a missing Secret key, root under runAsNonRoot): nothing runs.
    for (const image of Object.values(images)) await releaseImage(image.mount).catch(() => {});
    throw err;
  }
  // Written before anything is made, so a stop after a failed start knows what to take down.
  writeFileSync(paths.plan, JSON.stringify(plan, null, 2), { mode: 0o600 });
  try {
    await makeHostSide(plan, paths, manifests);
    await startSupervisor(plan, paths, options.detached ?? false);
    await waitUntilReady(paths, options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS);
  } catch (err) {
    await stopContainerCluster({ dataDir });
    throw err;
  }
  return describe(dataDir);
}

/** The bridge, each pod's namespace, the broker's container listener, the forwarders, /etc/hosts. */
async function makeHostSide(plan, paths, manifests) {
  const { plan: network } = plan.network;
  createBridge(network);
  for (const pod of plan.pods) createPodNetwork(network, pod.name);
  writeFileSync(paths.hosts, hostsFile(namesOf(manifests, plan.pods, plan.network)));
  // No name server: a name this cluster does not know fails at once instead of timing out.
  writeFileSync(paths.resolv, 'nameserver 127.0.0.1\noptions timeout:1 attempts:1\n');
  await startBroker({
    dir: paths.kafka,
    port: 0,
    containerListener: { host: network.hostAddress, port: plan.kafka.port },
  });
  const redis = new URL(plan.redisUrl);
  const s3 = new URL(plan.s3Env.S3_ENDPOINT);
  plan.forwards = [
    {
      host: network.hostAddress,
      port: 6379,
      target: { host: redis.hostname, port: Number(redis.port || 6379) },
    },
    {
      host: network.hostAddress,
      port: Number(s3.port),
      target: { host: s3.hostname, port: Number(s3.port) },
    },
  ];
  writeFileSync(paths.plan, JSON.stringify(plan, null, 2), { mode: 0o600 });
}

/** Supervisors started for a caller that is not detached die with it (tests). */
const attached = new Set();
let exitHookInstalled = false;

async function startSupervisor(plan, paths, detached) {
  const fd = openSync(paths.supervisorLog, 'a');
  const child = spawn(process.execPath, [join(import.meta.dirname, 'supervisor-main.mjs'), paths.plan], {
    detached: true,
    stdio: ['ignore', fd, fd],
    // The supervisor needs nothing of this shell: what the containers get is in the plan.
    env: { PATH: process.env.PATH },
  });
  closeSync(fd);
  child.unref();
  if (!detached) {
    attached.add(child.pid);
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.once('exit', () => {
        for (const pid of attached) if (alive(pid)) process.kill(pid, 'SIGTERM');
      });
    }
  }
  const deadline = Date.now() + 30_000;
  while (readJson(paths.status)?.supervisorPid !== child.pid) {
    if (!alive(child.pid))
      throw new Error(
        `the supervisor exited at start; see ${paths.supervisorLog}:\n${tailOf(paths.supervisorLog)}`,
      );
    if (Date.now() > deadline) throw new Error(`the supervisor did not start; see ${paths.supervisorLog}`);
    await sleep(100);
  }
}

function tailOf(file, lines = 30) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Every container ready; a container that exits or cannot be made while starting fails the start. */
async function waitUntilReady(paths, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = readJson(paths.status);
    const containers = status?.containers ?? [];
    const broken = containers.find((c) => c.restarts > 0 || c.lastExit || /Error/.test(c.reason ?? ''));
    if (broken) {
      throw new Error(
        `${broken.pod} ${broken.reason ?? 'exited'} while starting; the end of ${broken.log}:\n${tailOf(broken.log)}`,
      );
    }
    if (containers.length > 0 && containers.every((c) => c.ready)) return;
    if (Date.now() > deadline) {
      const waiting = containers.filter((c) => !c.ready).map((c) => c.pod);
      throw new Error(`not ready after ${timeoutMs / 1000} s: ${waiting.join(', ')}; logs in ${paths.logs}`);
    }
    await sleep(500);
  }
}

// ---- stop, status, kill ---------------------------------------------------------------------------

/** Drains every container (SIGTERM, the pod's grace period, SIGKILL) and takes down what the start made. */
export async function stopContainerCluster(options = {}) {
  const dataDir = resolve(options.dataDir ?? defaultContainersDir());
  const paths = pathsOf(dataDir);
  const plan = readJson(paths.plan);
  if (!plan) return { stopped: [] };
  const status = readJson(paths.status);
  const pid = status?.supervisorPid;
  const running = (status?.containers ?? []).filter((c) => c.state === 'running').map((c) => c.pod);
  if (alive(pid)) {
    process.kill(pid, 'SIGTERM');
    const graceMs = Math.max(...plan.pods.map((p) => p.terminationGracePeriodSeconds)) * 1000 + 60_000;
    const deadline = Date.now() + graceMs;
    while (alive(pid) && Date.now() < deadline) await sleep(200);
    if (alive(pid)) process.kill(pid, 'SIGKILL');
  }
  await forceCleanup(plan, paths);
  if (options.removeData) rmSync(dataDir, { recursive: true, force: true });
  return { stopped: running };
}

/** Whatever a supervisor that died left behind: its containers, the broker, the network, mounts. */
async function forceCleanup(plan, paths) {
  for (const pod of plan.pods) {
    await run('runc', ['--root', paths.runc, 'delete', '--force', `${plan.key}-${pod.name}`]).catch(() => {});
  }
  await stopBroker({ dir: paths.kafka }).catch(() => false);
  teardownNetwork(plan.network.plan);
  for (const image of Object.values(plan.images)) await releaseImage(image.mount).catch(() => {});
}

/** Removes the working container mountImage made (buildah's storage keeps the image). */
const releaseImage = (container) => buildah(['rm', container]);

/** What `status --containers` prints, from the supervisor's status file. */
export function containerClusterStatus(options = {}) {
  const dataDir = resolve(options.dataDir ?? defaultContainersDir());
  const status = readJson(pathsOf(dataDir).status);
  if (!status) return undefined;
  const supervising = alive(status.supervisorPid);
  return {
    ...describe(dataDir),
    supervising,
    containers: status.containers.map((c) =>
      supervising ? c : { ...c, state: c.state === 'running' ? 'unknown' : c.state },
    ),
  };
}

function describe(dataDir) {
  const paths = pathsOf(dataDir);
  const plan = readJson(paths.plan);
  const status = readJson(paths.status);
  const address = (component) => status?.containers.find((c) => c.component === component)?.address;
  const services = Object.fromEntries(
    (status?.containers ?? [])
      .filter((c) => c.ports.grpc)
      .map((c) => [c.component, `${c.address}:${c.ports.grpc}`]),
  );
  const gateway = status?.containers.find((c) => c.component === 'gateway');
  return {
    url: gateway ? `http://${address('gateway')}:${gateway.ports.http}` : undefined,
    dataDir,
    adminSecret: plan?.adminSecret,
    s3: { env: plan?.s3Env },
    services,
    containers: status?.containers ?? [],
  };
}

/** SIGKILLs a container, as a crash or the OOM killer would; resolves once the supervisor saw it exit. */
export async function killContainer(options, component, index = 0) {
  const dataDir = resolve(options.dataDir);
  const paths = pathsOf(dataDir);
  const plan = readJson(paths.plan);
  const before = readJson(paths.status).containers.find(
    (c) => c.component === component && c.index === index,
  );
  if (!before) throw new Error(`the containerized cluster in ${dataDir} has no ${component} #${index}`);
  await run('runc', ['--root', paths.runc, 'kill', `${plan.key}-${before.pod}`, 'KILL']);
  for (;;) {
    const now = readJson(paths.status).containers.find((c) => c.pod === before.pod);
    if (now.state !== 'running') return now;
    await sleep(100);
  }
}

/** Resolves once the container of `component` is running again after `restarts` and ready. */
export async function waitForContainer(options, component, { restarts, index = 0, timeoutMs = 180_000 }) {
  const paths = pathsOf(resolve(options.dataDir));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const c = readJson(paths.status).containers.find((x) => x.component === component && x.index === index);
    if (c.restarts >= restarts && c.state === 'running' && c.ready) return c;
    if (Date.now() > deadline)
      throw new Error(`${c.pod} not ready again after ${timeoutMs / 1000} s: ${c.state} ${c.reason ?? ''}`);
    await sleep(250);
  }
}

/** The pid, in this machine's namespace, of the container's first process (from `runc state`). */
export async function containerPid(options, component, index = 0) {
  const paths = pathsOf(resolve(options.dataDir));
  const plan = readJson(paths.plan);
  const status = readJson(paths.status).containers.find(
    (c) => c.component === component && c.index === index,
  );
  const { stdout } = await run('runc', ['--root', paths.runc, 'state', `${plan.key}-${status.pod}`]);
  return JSON.parse(stdout).pid;
}
