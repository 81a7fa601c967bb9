// The OCI runtime config (config.json) runc starts a container from, made from a pod's container
// spec (pod-spec.mjs): the process, user, root filesystem, mounts, namespaces, capabilities,
// seccomp profile and cgroup limits the Deployment asks for. Pure but for reading the seccomp
// profile: the supervisor writes what this returns into the container's bundle.
import { readFileSync } from 'node:fs';

/** containers-common's default profile: what CRI-O and Podman apply for seccompProfile RuntimeDefault. */
export const RUNTIME_DEFAULT_SECCOMP = '/usr/share/containers/seccomp.json';

/** The mounts every Linux container gets (runc's own `runc spec` defaults). */
const BASE_MOUNTS = [
  { destination: '/proc', type: 'proc', source: 'proc' },
  {
    destination: '/dev',
    type: 'tmpfs',
    source: 'tmpfs',
    options: ['nosuid', 'strictatime', 'mode=755', 'size=65536k'],
  },
  {
    destination: '/dev/pts',
    type: 'devpts',
    source: 'devpts',
    options: ['nosuid', 'noexec', 'newinstance', 'ptmxmode=0666', 'mode=0620'],
  },
  {
    destination: '/dev/shm',
    type: 'tmpfs',
    source: 'shm',
    options: ['nosuid', 'noexec', 'nodev', 'mode=1777', 'size=65536k'],
  },
  { destination: '/dev/mqueue', type: 'mqueue', source: 'mqueue', options: ['nosuid', 'noexec', 'nodev'] },
  { destination: '/sys', type: 'sysfs', source: 'sysfs', options: ['nosuid', 'noexec', 'nodev', 'ro'] },
];

const MASKED_PATHS = [
  '/proc/acpi',
  '/proc/asound',
  '/proc/kcore',
  '/proc/keys',
  '/proc/latency_stats',
  '/proc/timer_list',
  '/proc/timer_stats',
  '/proc/sched_debug',
  '/sys/firmware',
  '/proc/scsi',
];
const READONLY_PATHS = ['/proc/bus', '/proc/fs', '/proc/irq', '/proc/sys', '/proc/sysrq-trigger'];

/**
 * The RuntimeDefault profile in OCI form for a process holding `capabilities` on x86-64: the rules
 * that containers-common gates on a capability or architecture are kept only where they apply.
 */
export function runtimeDefaultSeccomp(capabilities, file = RUNTIME_DEFAULT_SECCOMP) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const held = new Set(capabilities);
  const applies = ({ includes = {}, excludes = {} }) =>
    (includes.caps ?? []).every((c) => held.has(c)) &&
    (includes.arches === undefined || includes.arches.includes('amd64')) &&
    !(excludes.caps ?? []).some((c) => held.has(c)) &&
    !(excludes.arches ?? []).includes('amd64');
  const x86 = profile.archMap.find((a) => a.architecture === 'SCMP_ARCH_X86_64');
  return {
    defaultAction: profile.defaultAction,
    ...(profile.defaultErrnoRet === undefined ? {} : { defaultErrnoRet: profile.defaultErrnoRet }),
    architectures: [x86.architecture, ...x86.subArchitectures],
    syscalls: profile.syscalls.filter(applies).map((rule) => ({
      names: rule.names,
      action: rule.action,
      ...(rule.args?.length ? { args: rule.args } : {}),
      ...(rule.errnoRet === undefined ? {} : { errnoRet: rule.errnoRet }),
    })),
  };
}

/**
 * @param {object} options
 * @param {object} options.pod         an entry of podsOf()
 * @param {string} options.rootfs      the image's root filesystem
 * @param {string} options.netns       the pod's network namespace (path)
 * @param {Record<string, string>} options.volumeSources  volume name → host path
 * @param {string} options.hostsFile   the cluster's /etc/hosts
 * @param {string} options.resolvFile  the cluster's /etc/resolv.conf
 * @param {string} options.cgroupsPath where runc puts the container's cgroups
 */
export function ociConfig({ pod, rootfs, netns, volumeSources, hostsFile, resolvFile, cgroupsPath }) {
  const c = pod.container;
  return {
    ociVersion: '1.0.2',
    process: {
      terminal: false,
      user: { uid: c.user.uid, gid: c.user.gid, additionalGids: c.user.additionalGids },
      args: c.argv,
      env: Object.entries(c.env).map(([k, v]) => `${k}=${v}`),
      cwd: c.workingDir,
      capabilities: Object.fromEntries(
        ['bounding', 'effective', 'permitted', 'inheritable'].map((set) => [set, c.capabilities]),
      ),
      noNewPrivileges: c.noNewPrivileges,
      // No rlimits: this machine lacks CAP_SYS_RESOURCE, and a pod's limits come from the node.
    },
    root: { path: rootfs, readonly: c.readOnlyRootFilesystem },
    hostname: pod.name,
    mounts: [...BASE_MOUNTS, ...fileMounts(hostsFile, resolvFile), ...volumeMounts(pod, volumeSources)],
    linux: {
      namespaces: [
        { type: 'pid' },
        { type: 'ipc' },
        { type: 'uts' },
        { type: 'mount' },
        { type: 'network', path: netns },
      ],
      cgroupsPath,
      resources: cgroupResources(c.resources),
      ...(c.seccomp === 'RuntimeDefault' ? { seccomp: runtimeDefaultSeccomp(c.capabilities) } : {}),
      maskedPaths: MASKED_PATHS,
      readonlyPaths: READONLY_PATHS,
    },
  };
}

/** /etc/hosts and /etc/resolv.conf, as the kubelet bind-mounts its own over the image's. */
function fileMounts(hostsFile, resolvFile) {
  return [
    { destination: '/etc/hosts', type: 'bind', source: hostsFile, options: ['rbind', 'ro'] },
    { destination: '/etc/resolv.conf', type: 'bind', source: resolvFile, options: ['rbind', 'ro'] },
  ];
}

/** emptyDirs on disk are bind mounts of the pod's folder; medium Memory is a tmpfs of sizeLimit. */
function volumeMounts(pod, volumeSources) {
  const volumes = new Map(pod.volumes.map((v) => [v.name, v]));
  return pod.container.mounts.map((m) => {
    const access = m.readOnly ? 'ro' : 'rw';
    const volume = volumes.get(m.volume);
    if (volume?.medium === 'Memory') {
      const size = volume.sizeLimitBytes === undefined ? [] : [`size=${volume.sizeLimitBytes}`];
      const owner = [
        `uid=${pod.container.user.uid}`,
        `gid=${pod.container.user.fsGroup ?? pod.container.user.gid}`,
      ];
      return {
        destination: m.path,
        type: 'tmpfs',
        source: 'tmpfs',
        options: ['nosuid', 'nodev', access, ...size, ...owner],
      };
    }
    return {
      destination: m.path,
      type: 'bind',
      source: volumeSources[m.volume],
      options: ['rbind', 'nosuid', 'nodev', access],
    };
  });
}

function cgroupResources({ memoryLimitBytes, cpuShares, cpuQuotaMicros }) {
  const resources = {};
  if (memoryLimitBytes !== undefined) {
    // No swap beyond the limit, as the kubelet sets it: over the limit is an OOM kill.
    resources.memory = { limit: memoryLimitBytes, swap: memoryLimitBytes };
  }
  if (cpuShares !== undefined || cpuQuotaMicros !== undefined) {
    resources.cpu = {
      ...(cpuShares === undefined ? {} : { shares: cpuShares }),
      ...(cpuQuotaMicros === undefined ? {} : { quota: cpuQuotaMicros, period: 100_000 }),
    };
  }
  return resources;
}
