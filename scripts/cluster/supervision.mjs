// What both local topologies share with the kubelet: a unit (a container of a pod, or an OS
// process of `npm run cluster`) is started, probed as its Deployment declares (startup first, then
// liveness and readiness), restarted with back-off when it exits or fails its liveness probe, and
// ended with SIGTERM, then SIGKILL after its grace period. The two supervisors
// (containers/supervisor.mjs, process-supervisor.mjs) differ only in how a unit is launched and
// signalled, which a subclass supplies.
/* global AbortController -- a Node global this config does not list for .mjs */
import { clearTimeout, setTimeout } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import { watchProbe } from './containers/probes.mjs';

/** The kubelet's restart back-off: 10 s doubling to 5 min, reset after 10 min of running. */
export const KUBELET_BACKOFF = { startMs: 10_000, maxMs: 300_000, resetAfterMs: 600_000 };

/** The wait before the next start, given how many times in a row the unit has crashed (1, 2, ...). */
export function backoffDelay(crashes, policy = KUBELET_BACKOFF) {
  return Math.min(policy.startMs * 2 ** (crashes - 1), policy.maxMs);
}

/**
 * One supervised unit. A subclass implements:
 *   launch()          starts it; resolves { pid, exited: Promise<number> } (the exit code)
 *   signal(name)      sends SIGTERM or SIGKILL to it (and, for SIGKILL, what it started)
 *   probeAddress      where its probes connect
 * and may override prepare() (before each start) and describe() (extra status fields).
 */
export class SupervisedUnit {
  constructor({ probes, graceSeconds, backoff = KUBELET_BACKOFF, onChange }) {
    this.probeSpecs = probes;
    this.graceSeconds = graceSeconds;
    this.backoff = backoff;
    this.onChange = onChange;
    this.state = 'waiting';
    this.reason = 'ContainerCreating';
    this.ready = false;
    this.started = false;
    this.restarts = 0;
    this.crashes = 0;
    this.lastExit = undefined;
    this.probes = [];
    this.stopping = false;
  }

  changed() {
    this.onChange();
  }

  async start() {
    if (this.stopping) return;
    const { pid, exited } = await this.launch();
    this.pid = pid;
    this.exitedPromise = exited;
    this.state = 'running';
    this.reason = undefined;
    this.startedAt = Date.now();
    this.ready = false;
    this.started = false;
    this.changed();
    exited.then((code) => this.exited(code));
    this.watch();
  }

  /** Startup first; liveness and readiness only once it has passed, as the kubelet orders them. */
  watch() {
    const probes = this.probeSpecs;
    const address = this.probeAddress;
    const afterStartup = () => {
      this.started = true;
      this.changed();
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
            if (ok) this.everReady = true;
            this.changed();
          }),
        );
      } else {
        this.ready = true;
        this.everReady = true;
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

  /** SIGTERM, then SIGKILL after the grace period; resolves once the unit is gone. */
  async kill(reason, graceSeconds = this.graceSeconds) {
    if (this.state !== 'running') return;
    this.killReason = reason;
    this.stopProbes();
    this.ready = false;
    this.changed();
    const exited = this.exitedPromise;
    await this.signal('SIGTERM');
    // The grace timer is cancelled once the unit is gone, so it holds no supervisor open.
    const grace = new AbortController();
    const timedOut = await Promise.race([
      exited.then(() => false),
      sleep(graceSeconds * 1000, undefined, { signal: grace.signal }).then(
        () => true,
        () => false,
      ),
    ]);
    grace.abort();
    if (timedOut) await this.signal('SIGKILL');
    await exited;
  }

  /** Called once per exit: records it and, unless the supervisor stops or holds it, restarts it later. */
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
    this.pid = undefined;
    this.afterExit();
    if (this.stopping) {
      this.state = 'terminated';
      this.changed();
      return;
    }
    if (this.keepDown()) return;
    this.crashes = ranMs > this.backoff.resetAfterMs ? 1 : this.crashes + 1;
    const delay = backoffDelay(this.crashes, this.backoff);
    this.state = 'waiting';
    this.reason = this.crashes > 1 ? 'CrashLoopBackOff' : 'Restarting';
    this.restartAt = Date.now() + delay;
    this.changed();
    this.restartTimer = setTimeout(() => {
      this.restarts += 1;
      this.start().catch((err) => this.failedToStart(err));
    }, delay);
  }

  /** Clean-up after each exit (a container's runc state). */
  afterExit() {}

  /** True when this exit is meant (an eviction, a hold): no restart with back-off follows. */
  keepDown() {
    return false;
  }

  failedToStart(err) {
    this.state = 'waiting';
    this.reason = `CreateContainerError: ${err.message}`;
    this.changed();
  }

  /** No restart from now on; what runs gets its grace period. */
  async stop(reason = 'stopped') {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    await this.kill(reason);
    if (this.state !== 'running') this.state = 'terminated';
  }

  status() {
    return {
      state: this.state,
      reason: this.reason,
      ready: this.ready,
      everReady: this.everReady === true,
      started: this.started,
      restarts: this.restarts,
      lastExit: this.lastExit,
      pid: this.pid,
    };
  }
}
