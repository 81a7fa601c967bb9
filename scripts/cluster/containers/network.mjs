// The container network of one containerized cluster: a Linux bridge on the host and one network
// namespace per pod, joined to it by a veth pair, as a CNI bridge plugin lays out a node's pods.
// Each pod gets its own loopback and address, so every container can bind the chart's ports
// (HOST=0.0.0.0, gRPC 50051, ops 9090) without meeting another. The host is the bridge's first
// address: Kafka, S3 and Redis stay host processes and are reached there (forward.mjs, the broker's
// container listener). Everything is made with iproute2 and torn down by `teardownNetwork`.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';

/** The /16 our /24s are carved from: private, and unlikely to be a real network of this machine. */
const PREFIX = '10.231';

const ip = (...args) => execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** A short key of the cluster's data dir: names of its bridge, namespaces and veths. */
export function networkKey(dataDir) {
  return createHash('sha256').update(dataDir).digest('hex').slice(0, 6);
}

/** The third octets of the 10.231.x.0/24 networks any interface of this machine already has. */
function usedSubnets() {
  const used = new Set();
  for (const match of ip('-4', '-o', 'addr', 'show').matchAll(/inet 10\.231\.(\d+)\./g)) {
    used.add(Number(match[1]));
  }
  return used;
}

/** A free /24, starting from one derived from the key so two clusters rarely probe the same ones. */
function freeSubnet(key) {
  const used = usedSubnets();
  const start = parseInt(key, 16) % 250;
  for (let i = 0; i < 250; i += 1) {
    const octet = ((start + i) % 250) + 1;
    if (!used.has(octet)) return `${PREFIX}.${octet}`;
  }
  throw new Error(`no free ${PREFIX}.x.0/24 network is left on this machine`);
}

/**
 * The plan of the network: names and addresses, decided before anything is made, so the state
 * file can say what to tear down even if making it fails half way.
 * @param {string} dataDir
 * @param {string[]} pods pod names, in the order their addresses are given
 */
export function planNetwork(dataDir, pods) {
  const key = networkKey(dataDir);
  const subnet = freeSubnet(key);
  return {
    key,
    bridge: `fob-${key}`,
    hostAddress: `${subnet}.1`,
    pods: Object.fromEntries(
      pods.map((pod, i) => [
        pod,
        { netns: `fieldops-${key}-${i}`, veth: `fov${key}${i}`, address: `${subnet}.${10 + i}` },
      ]),
    ),
  };
}

/** Makes the bridge with the host's address on it. */
export function createBridge(plan) {
  ip('link', 'add', plan.bridge, 'type', 'bridge');
  ip('addr', 'add', `${plan.hostAddress}/24`, 'dev', plan.bridge);
  ip('link', 'set', plan.bridge, 'up');
}

/** Makes one pod's namespace: loopback up, eth0 with its address, default route via the host. */
export function createPodNetwork(plan, pod) {
  const { netns, veth, address } = plan.pods[pod];
  const peer = `${veth}p`;
  ip('netns', 'add', netns);
  ip('link', 'add', veth, 'type', 'veth', 'peer', 'name', peer);
  ip('link', 'set', peer, 'netns', netns);
  ip('link', 'set', veth, 'master', plan.bridge);
  ip('link', 'set', veth, 'up');
  ip('-n', netns, 'link', 'set', peer, 'name', 'eth0');
  ip('-n', netns, 'addr', 'add', `${address}/24`, 'dev', 'eth0');
  ip('-n', netns, 'link', 'set', 'eth0', 'up');
  ip('-n', netns, 'link', 'set', 'lo', 'up');
  ip('-n', netns, 'route', 'add', 'default', 'via', plan.hostAddress);
}

/** The path runc joins for a pod's network namespace. */
export const netnsPath = (plan, pod) => `/var/run/netns/${plan.pods[pod].netns}`;

/** Removes every namespace (and so its veth) and the bridge; what is already gone is skipped. */
export function teardownNetwork(plan) {
  for (const { netns } of Object.values(plan.pods)) {
    try {
      ip('netns', 'del', netns);
    } catch {
      // never made, or already removed
    }
  }
  try {
    ip('link', 'del', plan.bridge);
  } catch {
    // never made, or already removed
  }
}

/**
 * The /etc/hosts every container of the cluster gets: the names the chart gives its Services and
 * the data services outside it, each at the address that answers for it here.
 * @param {Record<string, string>} names name → address
 */
export function hostsFile(names) {
  const lines = ['127.0.0.1\tlocalhost', '::1\tlocalhost ip6-localhost ip6-loopback'];
  for (const [name, address] of Object.entries(names)) lines.push(`${address}\t${name}`);
  return `${lines.join('\n')}\n`;
}
