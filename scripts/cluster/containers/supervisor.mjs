// A small kubelet for the chart's pods on this machine: it runs each pod's container with runc in
// the pod's network namespace, runs the probes the Deployment declares (startup, then liveness and
// readiness), restarts a container that exits or fails its liveness probe with the kubelet's
// back-off (10 s doubling to 5 min, reset after 10 min of running), evicts a pod whose emptyDir
// grows past its sizeLimit (a new pod with empty volumes replaces it, as its Deployment would), and
// on stop sends SIGTERM and waits the pod's terminationGracePeriodSeconds before SIGKILL. What it
// sees is written to the status file after every change (containers.mjs reads it).
import { spawn, execFile } from 'node:child_process';
import {
  chownSync,
  chmodSync,
  closeSync,
  mkdirSync,
  openSync,
  rmSync,
  writeFileSync,
  renameSync,
} from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { clearInterval, setInterval } from 'node:timers';
import { ociConfig } from './oci-config.mjs';
import { SupervisedUnit } from '../supervision.mjs';

const run = promisify(execFile);

/** How often emptyDir usage is measured against sizeLimit (the kubelet's housekeeping is 10 s). */
const EVICTION_PERIOD_MS = 10_000;

/** One container of one pod, from creation to its last exit (the life cycle: supervision.mjs). */
class Container extends SupervisedUnit {
  constructor(supervisor, pod) {
    super({
      probes: pod.container.probes,
      graceSeconds: pod.terminationGracePeriodSeconds,
      onChange: () => supervisor.changed(),
    });
    this.supervisor = supervisor;
    this.pod = pod;
    this.id = `${supervisor.plan.key}-${pod.name}`;
    this.evictions = 0;
  }

  get paths() {
    const dir = join(this.supervisor.plan.podsDir, this.pod.name);
    return {
      dir,
      bundle: join(dir, 'bundle'),
      volumes: join(dir, 'volumes'),
      log: join(this.supervisor.plan.logsDir, `${this.pod.name}.log`),
    };
  }

  get probeAddress() {
    return this.supervisor.plan.network.addresses[this.pod.name];
  }

  runc(...args) {
    return run('runc', ['--root', this.supervisor.plan.runcRoot, ...args]);
  }

  /** Fresh emptyDirs, owned by the pod's fsGroup as the kubelet makes them (setgid, group-writable). */
  makeVolumes() {
    rmSync(this.paths.volumes, { recursive: true, force: true });
    const sources = {};
    const { user } = this.pod.container;
    for (const volume of this.pod.volumes) {
      const dir = join(this.paths.volumes, volume.name);
      mkdirSync(dir, { recursive: true });
      chownSync(dir, user.uid, user.fsGroup ?? user.gid);
      // With an fsGroup: group-owned and setgid, so files made inside stay the pod's group.
      chmodSync(dir, user.fsGroup === undefined ? 0o777 : 0o2775);
      sources[volume.name] = dir;
    }
    this.volumeSources = sources;
  }

  writeBundle() {
    const { plan } = this.supervisor;
    const image = plan.images[this.pod.container.image];
    const config = ociConfig({
      pod: this.pod,
      rootfs: image.rootfs,
      netns: plan.network.netnsPaths[this.pod.name],
      volumeSources: this.volumeSources,
      hostsFile: plan.hostsFile,
      resolvFile: plan.resolvFile,
      cgroupsPath: `/fieldops/${plan.key}/${this.pod.name}`,
    });
    mkdirSync(this.paths.bundle, { recursive: true });
    writeFileSync(join(this.paths.bundle, 'config.json'), JSON.stringify(config, null, 1));
  }

  async launch() {
    await this.runc('delete', '--force', this.id).catch(() => {});
    if (!this.volumeSources) this.makeVolumes();
    this.writeBundle();
    const fd = openSync(this.paths.log, 'a');
    const child = spawn(
      'runc',
      ['--root', this.supervisor.plan.runcRoot, 'run', '--bundle', this.paths.bundle, this.id],
      { stdio: ['ignore', fd, fd] },
    );
    closeSync(fd);
    const exited = new Promise((done) =>
      child.once('exit', (code, signal) => done(code ?? (signal ? 128 : 1))),
    );
    return { pid: child.pid, exited };
  }

  async signal(name) {
    if (name === 'SIGKILL') await this.runc('kill', '--all', this.id, 'KILL').catch(() => {});
    else await this.runc('kill', this.id, 'TERM').catch(() => {});
  }

  afterExit() {
    this.runc('delete', '--force', this.id).catch(() => {});
  }

  keepDown() {
    return this.evicting === true;
  }

  /** A pod over its emptyDir limit is evicted: its containers end and a new pod starts in its place. */
  async evict(volume, usedBytes) {
    this.evicting = true;
    this.evictions += 1;
    this.lastEviction = { volume, usedBytes, at: new Date().toISOString() };
    await this.kill(`Evicted: emptyDir ${volume} used ${usedBytes} bytes, over its sizeLimit`);
    this.volumeSources = undefined;
    this.evicting = false;
    if (!this.stopping) await this.start().catch((err) => this.failedToStart(err));
  }

  status() {
    const { container } = this.pod;
    return {
      pod: this.pod.name,
      deployment: this.pod.deployment,
      component: this.pod.component,
      index: this.pod.index,
      id: this.id,
      image: container.image,
      address: this.probeAddress,
      ports: container.ports,
      ...super.status(),
      evictions: this.evictions,
      lastEviction: this.lastEviction,
      log: this.paths.log,
      limits: container.resources,
      notHonoured: this.pod.notHonoured,
    };
  }
}

/** Bytes a folder holds on disk (du), or 0 when it is gone. */
async function usage(dir) {
  try {
    const { stdout } = await run('du', ['-s', '-B1', dir]);
    return Number(stdout.split(/\s/)[0]);
  } catch {
    return 0;
  }
}

export class Supervisor {
  /** @param {object} plan what containers.mjs decided: pods, images, network, files */
  constructor(plan) {
    this.plan = plan;
    this.stopping = false;
    this.containers = plan.pods.map((pod) => new Container(this, pod));
  }

  changed() {
    const status = {
      supervisorPid: process.pid,
      stopping: this.stopping,
      updatedAt: new Date().toISOString(),
      containers: this.containers.map((c) => c.status()),
    };
    const partial = `${this.plan.statusFile}.partial`;
    writeFileSync(partial, `${JSON.stringify(status, null, 2)}\n`);
    renameSync(partial, this.plan.statusFile);
  }

  async start() {
    mkdirSync(this.plan.logsDir, { recursive: true });
    this.changed();
    await Promise.all(this.containers.map((c) => c.start().catch((err) => c.failedToStart(err))));
    this.evictionTimer = setInterval(() => this.checkVolumes(), EVICTION_PERIOD_MS);
  }

  async checkVolumes() {
    for (const container of this.containers) {
      if (container.state !== 'running' || !container.volumeSources) continue;
      for (const volume of container.pod.volumes) {
        if (volume.medium !== 'Disk' || volume.sizeLimitBytes === undefined) continue;
        const used = await usage(container.volumeSources[volume.name]);
        if (used > volume.sizeLimitBytes) {
          await container.evict(volume.name, used);
          break;
        }
      }
    }
  }

  /** Every container gets SIGTERM at once and its own grace period, as a deleted pod does. */
  async stop() {
    this.stopping = true;
    clearInterval(this.evictionTimer);
    this.changed();
    await Promise.all(this.containers.map((c) => c.stop('stopped')));
    this.changed();
  }
}
