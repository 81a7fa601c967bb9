// What a kubelet makes of a rendered Deployment: the container to run for each replica, with its
// command, environment (ConfigMap and Secret references resolved), user, volumes, probes and
// resources, exactly as the chart wrote them. Pure (no process, no file): the supervisor runs what
// this returns, and test/deploy/containers.test.ts compares it with the chart. Whatever of a pod
// spec this machine cannot honour is listed in `notHonoured`, never dropped in silence; whatever
// Kubernetes itself would refuse to start (a missing required key, root under runAsNonRoot) throws.
import { Buffer } from 'node:buffer';

/** Quantity suffixes of Kubernetes resources (binary, decimal, and milli for CPU). */
const SUFFIXES = {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  m: 1e-3,
  '': 1,
};

/** A Kubernetes quantity ("512Mi", "250m", "1", "1.5Gi") as a number of its base unit. */
export function quantity(text) {
  const match = /^([0-9.]+)(Ki|Mi|Gi|Ti|k|M|G|T|m|)$/.exec(String(text).trim());
  if (!match) throw new Error(`"${text}" is not a Kubernetes quantity this supervisor reads`);
  return Number(match[1]) * SUFFIXES[match[2]];
}

/** The rendered objects of one kind, by name. */
function byName(manifests, kind) {
  return new Map(manifests.filter((m) => m?.kind === kind).map((m) => [m.metadata.name, m]));
}

/** A ConfigMap's or Secret's key/value pairs (Secrets rendered by helm carry stringData). */
function dataOf(object) {
  if (object.kind === 'Secret') {
    const decoded = Object.entries(object.data ?? {}).map(([k, v]) => [
      k,
      Buffer.from(v, 'base64').toString(),
    ]);
    return { ...Object.fromEntries(decoded), ...(object.stringData ?? {}) };
  }
  return { ...(object.data ?? {}) };
}

/** $(VAR) references to variables defined before, as the kubelet expands them; $$ escapes. */
function expand(value, env) {
  return value.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (whole, name) =>
    whole === '$$' ? '$' : name in env ? env[name] : whole,
  );
}

/**
 * The container's environment: the image's ENV, then envFrom in order, then env in order (later
 * wins), references resolved against the rendered ConfigMaps and Secrets.
 */
function resolveEnv({ container, imageEnv, configMaps, secrets, podName }) {
  const env = { ...imageEnv, HOSTNAME: podName };
  const sourceOf = (ref, kind) => {
    const found = (kind === 'ConfigMap' ? configMaps : secrets).get(ref.name);
    return found ? dataOf(found) : undefined;
  };
  for (const from of container.envFrom ?? []) {
    const ref = from.configMapRef ?? from.secretRef;
    const data = sourceOf(ref, from.configMapRef ? 'ConfigMap' : 'Secret');
    if (!data && !ref.optional) throw new Error(`${container.name}: envFrom names a missing ${ref.name}`);
    for (const [key, value] of Object.entries(data ?? {})) env[`${from.prefix ?? ''}${key}`] = value;
  }
  for (const entry of container.env ?? []) {
    const value = entryValue(entry, { container, sourceOf, env });
    if (value !== undefined) env[entry.name] = value;
  }
  return env;
}

function entryValue(entry, { container, sourceOf, env }) {
  if (entry.valueFrom === undefined) return expand(String(entry.value ?? ''), env);
  const ref = entry.valueFrom.configMapKeyRef ?? entry.valueFrom.secretKeyRef;
  if (ref === undefined) {
    throw new Error(`${container.name}: ${entry.name} comes from a source this supervisor does not resolve`);
  }
  const data = sourceOf(ref, entry.valueFrom.configMapKeyRef ? 'ConfigMap' : 'Secret');
  if (data?.[ref.key] !== undefined) return data[ref.key];
  if (ref.optional) return undefined;
  // What the kubelet reports as CreateContainerConfigError: the pod never starts.
  throw new Error(`${container.name}: ${entry.name} needs key ${ref.key} of ${ref.name}, which has none`);
}

/** Who the process runs as: the container's securityContext, else the pod's, else the image's USER. */
function userOf(podSpec, container, imageUser) {
  const pod = podSpec.securityContext ?? {};
  const own = container.securityContext ?? {};
  const [imageUid, imageGid] = String(imageUser || '0:0').split(':');
  const uid = Number(own.runAsUser ?? pod.runAsUser ?? imageUid ?? 0);
  const gid = Number(own.runAsGroup ?? pod.runAsGroup ?? imageGid ?? 0);
  if ((own.runAsNonRoot ?? pod.runAsNonRoot) && uid === 0) {
    throw new Error(`${container.name}: runAsNonRoot is set but the container would run as root`);
  }
  const fsGroup = pod.fsGroup === undefined ? undefined : Number(pod.fsGroup);
  return { uid, gid, additionalGids: fsGroup === undefined ? [] : [fsGroup], fsGroup };
}

/** The pod's volumes this supervisor makes: emptyDirs only (on disk, or tmpfs for medium Memory). */
function volumesOf(podSpec) {
  return (podSpec.volumes ?? []).map((volume) => {
    if (!volume.emptyDir) throw new Error(`volume ${volume.name}: only emptyDir volumes run here`);
    const { sizeLimit, medium } = volume.emptyDir;
    return {
      name: volume.name,
      medium: medium === 'Memory' ? 'Memory' : 'Disk',
      sizeLimitBytes: sizeLimit === undefined ? undefined : quantity(sizeLimit),
    };
  });
}

/** A probe with its port resolved to a number, and Kubernetes' defaults filled in. */
function probeOf(probe, ports) {
  if (!probe) return undefined;
  const action = probe.httpGet ?? probe.tcpSocket;
  if (!action) throw new Error('only httpGet and tcpSocket probes run here');
  const port = typeof action.port === 'number' ? action.port : ports[action.port];
  if (port === undefined) throw new Error(`a probe names port ${action.port}, which the container lacks`);
  return {
    type: probe.httpGet ? 'http' : 'tcp',
    path: probe.httpGet?.path ?? '/',
    port,
    initialDelaySeconds: probe.initialDelaySeconds ?? 0,
    periodSeconds: probe.periodSeconds ?? 10,
    timeoutSeconds: probe.timeoutSeconds ?? 1,
    failureThreshold: probe.failureThreshold ?? 3,
    successThreshold: probe.successThreshold ?? 1,
  };
}

/** Memory limit in bytes and CPU weight/quota, from the container's resources. */
function resourcesOf(resources = {}) {
  const out = {};
  if (resources.limits?.memory) out.memoryLimitBytes = quantity(resources.limits.memory);
  // As the kubelet sets them on cgroup v1: shares from the request, a CFS quota from the limit.
  if (resources.requests?.cpu)
    out.cpuShares = Math.max(2, Math.round(quantity(resources.requests.cpu) * 1024));
  if (resources.limits?.cpu) out.cpuQuotaMicros = Math.round(quantity(resources.limits.cpu) * 100_000);
  return out;
}

/** The parts of a pod spec that only a Kubernetes cluster can honour, named for `status`. */
function notHonouredOf(podSpec, container) {
  const out = [];
  if (podSpec.topologySpreadConstraints?.length) out.push('topologySpreadConstraints');
  if (podSpec.affinity && Object.keys(podSpec.affinity).length) out.push('affinity');
  if (podSpec.nodeSelector && Object.keys(podSpec.nodeSelector).length) out.push('nodeSelector');
  if (podSpec.tolerations?.length) out.push('tolerations');
  if (podSpec.serviceAccountName) out.push(`serviceAccountName (${podSpec.serviceAccountName})`);
  if (podSpec.imagePullSecrets?.length) out.push('imagePullSecrets');
  if (container.resources?.requests?.memory) out.push('resources.requests.memory (a scheduling input)');
  return out;
}

/**
 * One entry per replica of every Deployment: what to run and how to watch it.
 * @param {object[]} manifests every object `helm template` rendered
 * @param {(image: string) => { env: Record<string,string>, user: string, workingDir: string, entrypoint: string[], cmd: string[] }} imageConfig
 */
export function podsOf(manifests, imageConfig) {
  const configMaps = byName(manifests, 'ConfigMap');
  const secrets = byName(manifests, 'Secret');
  return [...byName(manifests, 'Deployment').values()].flatMap((deployment) => {
    const replicas = deployment.spec.replicas ?? 1;
    return Array.from({ length: replicas }, (_, index) =>
      podOf({ deployment, index, configMaps, secrets, imageConfig }),
    );
  });
}

function podOf({ deployment, index, configMaps, secrets, imageConfig }) {
  const podSpec = deployment.spec.template.spec;
  const name = `${deployment.metadata.name}-${index}`;
  const component = deployment.spec.template.metadata.labels['app.kubernetes.io/component'];
  if (podSpec.containers.length !== 1 || podSpec.initContainers?.length) {
    throw new Error(`${deployment.metadata.name}: only pods of one container run here`);
  }
  const container = podSpec.containers[0];
  const image = imageConfig(container.image);
  const ports = Object.fromEntries((container.ports ?? []).map((p) => [p.name, p.containerPort]));
  const security = container.securityContext ?? {};
  return {
    name,
    deployment: deployment.metadata.name,
    component,
    index,
    labels: deployment.spec.template.metadata.labels,
    terminationGracePeriodSeconds: podSpec.terminationGracePeriodSeconds ?? 30,
    volumes: volumesOf(podSpec),
    container: {
      name: container.name,
      image: container.image,
      argv: argvOf(container, image),
      workingDir: container.workingDir ?? image.workingDir ?? '/',
      env: resolveEnv({ container, imageEnv: image.env, configMaps, secrets, podName: name }),
      user: userOf(podSpec, container, image.user),
      readOnlyRootFilesystem: security.readOnlyRootFilesystem === true,
      noNewPrivileges: security.allowPrivilegeEscalation === false,
      capabilities: capabilitiesOf(security.capabilities),
      seccomp: (security.seccompProfile ?? podSpec.securityContext?.seccompProfile)?.type,
      ports,
      mounts: (container.volumeMounts ?? []).map((m) => ({
        volume: m.name,
        path: m.mountPath,
        readOnly: m.readOnly === true,
      })),
      probes: {
        startup: probeOf(container.startupProbe, ports),
        liveness: probeOf(container.livenessProbe, ports),
        readiness: probeOf(container.readinessProbe, ports),
      },
      resources: resourcesOf(container.resources),
    },
    notHonoured: notHonouredOf(podSpec, container),
  };
}

/** command replaces the image's ENTRYPOINT and args its CMD; a command alone drops the CMD. */
function argvOf(container, image) {
  if (container.command) return [...container.command, ...(container.args ?? [])];
  return [...(image.entrypoint ?? []), ...(container.args ?? image.cmd ?? [])];
}

/** The capability set left: the runtime's defaults minus `drop`, plus `add` (none after drop ALL). */
const RUNTIME_DEFAULT_CAPS = [
  'CAP_CHOWN',
  'CAP_DAC_OVERRIDE',
  'CAP_FSETID',
  'CAP_FOWNER',
  'CAP_MKNOD',
  'CAP_NET_RAW',
  'CAP_SETGID',
  'CAP_SETUID',
  'CAP_SETFCAP',
  'CAP_SETPCAP',
  'CAP_NET_BIND_SERVICE',
  'CAP_SYS_CHROOT',
  'CAP_KILL',
  'CAP_AUDIT_WRITE',
];

function capabilitiesOf({ drop = [], add = [] } = {}) {
  const named = (list) => list.map((c) => (c === 'ALL' ? c : `CAP_${c.replace(/^CAP_/, '')}`));
  const dropped = new Set(named(drop));
  const kept = dropped.has('ALL') ? [] : RUNTIME_DEFAULT_CAPS.filter((c) => !dropped.has(c));
  return [...new Set([...kept, ...named(add)])];
}

/**
 * The Services of the release and the pods their selectors pick: the names a container resolves.
 * @returns {{ name: string, ports: { name?: string, port: number, targetPort: number | string }[], pods: string[] }[]}
 */
export function servicesOf(manifests, pods) {
  return [...byName(manifests, 'Service').values()].map((service) => {
    const selector = service.spec.selector ?? {};
    const picked = pods.filter((pod) => Object.entries(selector).every(([k, v]) => pod.labels[k] === v));
    return {
      name: service.metadata.name,
      ports: service.spec.ports.map((p) => ({
        name: p.name,
        port: p.port,
        targetPort: p.targetPort ?? p.port,
      })),
      pods: picked.map((pod) => pod.name),
    };
  });
}
