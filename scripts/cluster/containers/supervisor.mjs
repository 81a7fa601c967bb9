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
import { clearInterval, clearTimeout, setInterval, setTimeout } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import { ociConfig } from './oci-config.mjs';
import { watchProbe } from './probes.mjs';

const run = promisify(execFile);

const BACKOFF_START_MS = 10_000;
const BACKOFF_MAX_MS = 300_000;
/** A container that ran this long without exiting starts its back-off afresh, as the kubelet's does. */
const BACKOFF_RESET_MS = 600_000;
/** How often emptyDir usage is measured against sizeLimit (the kubelet's housekeeping is 10 s). */
const EVICTION_PERIOD_MS = 10_000;

/** One container of one pod, from creation to its last exit. */
class Container {
  constructor(supervisor, pod) {
    this.supervisor = supervisor;
    this.pod = pod;
    this.id = `${supervisor.plan.key}-${pod.name}`;
    this.state = 'waiting';
    this.reason = 'ContainerCreating';
    this.ready = false;
    this.started = false;
    this.restarts = 0;
    this.evictions = 0;
    this.crashes = 0;
    this.lastExit = undefined;
    this.probes = [];
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

  async start() {
    if (this.supervisor.stopping) return;
    await this.runc('delete', '--force', this.id).catch(() => {});
    if (!this.volumeSources) this.makeVolumes();
    this.writeBundle();
    const fd = openSync(this.paths.log, 'a');
    const child = spawn(
      'runc',
      ['--root', this.supervisor.plan.runcRoot, 'run', '--bundle', this.paths.bundle, this.id],
      {
        stdio: ['ignore', fd, fd],
      },
    );
    closeSync(fd);
    this.child = child;
    this.state = 'running';
    this.reason = undefined;
    this.startedAt = Date.now();
    this.ready = false;
    this.started = false;
    this.supervisor.changed();
    child.once('exit', (code, signal) => this.exited(code ?? (signal ? 128 : 1)));
    this.watch();
  }

  /** Startup first; liveness and readiness only once it has passed, as the kubelet orders them. */
  watch() {
    const { probes } = this.pod.container;
    const address = this.supervisor.plan.network.addresses[this.pod.name];
    const afterStartup = () => {
      this.started = true;
      this.supervisor.changed();
      if (probes.liveness) {
        this.probes.push(
          watchProbe(probes.liveness, address, (ok) => {
            if (!ok) this.kill('liveness probe failed');
          }),
        );
      }
      if (probes.readiness) {
        this.probes.push(
          watchProbe(probes.readiness, address, (ok) => {
            this.ready = ok;
            this.supervisor.changed();
          }),
        );
      } else {
        this.ready = true;
      }
    };
    if (!probes.startup) return afterStartup();
    const startup = watchProbe(probes.startup, address, (ok) => {
      startup.stop();
      if (ok) afterStartup();
      else this.kill('startup probe failed');
    });
    this.probes.push(startup);
  }

  stopProbes() {
    for (const probe of this.probes) probe.stop();
    this.probes = [];
  }

  /** SIGTERM, then SIGKILL after the pod's grace period; resolves once the container is gone. */
  async kill(reason, graceSeconds = this.pod.terminationGracePeriodSeconds) {
    if (this.state !== 'running') return;
    this.killReason = reason;
    this.stopProbes();
    this.ready = false;
    this.supervisor.changed();
    const exited = new Promise((done) => this.child.once('exit', done));
    await this.runc('kill', this.id, 'TERM').catch(() => {});
    const timedOut = await Promise.race([
      exited.then(() => false),
      sleep(graceSeconds * 1000).then(() => true),
    ]);
    if (timedOut) await this.runc('kill', '--all', this.id, 'KILL').catch(() => {});
    await exited;
  }

  exited(code) {
    this.stopProbes();
    const ranMs = Date.now() - this.startedAt;
    this.lastExit = {
      code,
      reason: this.killReason ?? (code === 0 ? 'Completed' : code === 137 ? 'Killed' : 'Error'),
      at: new Date().toISOString(),
    };
    this.killReason = undefined;
    this.ready = false;
    this.child = undefined;
    this.runc('delete', '--force', this.id).catch(() => {});
    if (this.supervisor.stopping) {
      this.state = 'terminated';
      this.supervisor.changed();
      return;
    }
    if (this.evicting) return;
    this.crashes = ranMs > BACKOFF_RESET_MS ? 1 : this.crashes + 1;
    const delay = Math.min(BACKOFF_START_MS * 2 ** (this.crashes - 1), BACKOFF_MAX_MS);
    this.state = 'waiting';
    this.reason = this.crashes > 1 ? 'CrashLoopBackOff' : 'Restarting';
    this.restartAt = Date.now() + delay;
    this.supervisor.changed();
    this.restartTimer = setTimeout(() => {
      this.restarts += 1;
      this.start().catch((err) => this.failedToStart(err));
    }, delay);
  }

  failedToStart(err) {
    this.state = 'waiting';
    this.reason = `CreateContainerError: ${err.message}`;
    this.supervisor.changed();
  }

  /** A pod over its emptyDir limit is evicted: its containers end and a new pod starts in its place. */
  async evict(volume, usedBytes) {
    this.evicting = true;
    this.evictions += 1;
    this.lastEviction = { volume, usedBytes, at: new Date().toISOString() };
    await this.kill(`Evicted: emptyDir ${volume} used ${usedBytes} bytes, over its sizeLimit`);
    this.volumeSources = undefined;
    this.evicting = false;
    if (!this.supervisor.stopping) await this.start().catch((err) => this.failedToStart(err));
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
      address: this.supervisor.plan.network.addresses[this.pod.name],
      ports: container.ports,
      state: this.state,
      reason: this.reason,
      ready: this.ready,
      started: this.started,
      restarts: this.restarts,
      evictions: this.evictions,
      lastExit: this.lastExit,
      lastEviction: this.lastEviction,
      pid: this.child?.pid,
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
    for (const c of this.containers) clearTimeout(c.restartTimer);
    this.changed();
    await Promise.all(this.containers.map((c) => c.kill('stopped')));
    for (const c of this.containers) if (c.state !== 'running') c.state = 'terminated';
    this.changed();
  }
}
