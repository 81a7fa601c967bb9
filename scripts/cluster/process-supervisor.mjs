// The supervisor of `npm run cluster`'s OS processes: the same life cycle as the containerized
// mode's kubelet (supervision.mjs: the probes, restart with back-off on exit or failed liveness,
// SIGTERM then SIGKILL after the grace period), for processes run as `node <kind>.mjs` on this
// machine. It runs as a process of its own (process-supervisor-main.mjs), the parent of every
// cluster process, and writes what it sees to the status file after every change; cluster.mjs
// reads that file for `status`, kills and waits. A process can be held down (scaled to zero) by a
// marker file in the holds folder, which is how a bench stops one without it coming back. A file
// of settings beside the marker changes the environment it starts with once the hold is lifted
// (a Deployment's rollout with a new environment), which is how a test cluster moves the gateway
// on to the next group's settings.
import { spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { clearInterval, clearTimeout, setInterval } from 'node:timers';
import { killTree, startTicks } from './processes.mjs';
import { SupervisedUnit } from './supervision.mjs';

/**
 * The chart's probes (templates/deployment.yaml), on each process's ops port, with three changes
 * for one loaded machine: the startup probe allows 240 s (ten processes load their sources on two
 * busy cores; the chart allows 60 s); liveness gives each answer 10 s and fails after 6 misses (a
 * minute), since a gateway under the kill matrix's load on two shared cores missed the chart's
 * 3 s three times in a row and was restarted though its event loop turned; and readiness is
 * asked every 2 s instead of 5 s, so a restarted process is taken back within about 2 s.
 */
export const PROCESS_PROBES = {
  startup: { path: '/healthz', periodSeconds: 1, timeoutSeconds: 3, failureThreshold: 240 },
  liveness: { path: '/healthz', periodSeconds: 10, timeoutSeconds: 10, failureThreshold: 6 },
  readiness: { path: '/readyz', periodSeconds: 2, timeoutSeconds: 3, failureThreshold: 2 },
};

/**
 * The kubelet's back-off shape (doubling, capped, reset after 10 min of running), starting at 1 s
 * instead of 10 s: a process here pulls no image, and the failure tests time every kind's outage.
 */
export const PROCESS_BACKOFF = { startMs: 1_000, maxMs: 300_000, resetAfterMs: 600_000 };

/** Seconds a process gets between SIGTERM and SIGKILL (the workers' drain is 20 s by default). */
const GRACE_SECONDS = { 'capture-worker': 30, default: 15 };

/** How often the holds folder is read. */
const HOLD_POLL_MS = 500;

function probesOn(opsPort) {
  const full = (probe) => ({
    type: 'http',
    port: opsPort,
    initialDelaySeconds: 0,
    successThreshold: 1,
    ...probe,
  });
  return {
    startup: full(PROCESS_PROBES.startup),
    liveness: full(PROCESS_PROBES.liveness),
    readiness: full(PROCESS_PROBES.readiness),
  };
}

/** One cluster process: `node --enable-source-maps <flags> <script>`, its output appended to its log. */
class ProcessUnit extends SupervisedUnit {
  /** @param {object} spec { name, kind, index, script, nodeArgs, env, log, cwd, opsPort } */
  constructor(supervisor, spec) {
    super({
      probes: probesOn(spec.opsPort),
      graceSeconds: GRACE_SECONDS[spec.kind] ?? GRACE_SECONDS.default,
      backoff: supervisor.plan.backoff ?? PROCESS_BACKOFF,
      onChange: () => supervisor.changed(),
    });
    this.supervisor = supervisor;
    this.spec = spec;
    this.probeAddress = '127.0.0.1';
  }

  get held() {
    return existsSync(join(this.supervisor.plan.holdsDir, this.spec.name));
  }

  /**
   * Applies `<holds>/<name>.env.json` ({ variable: value, or null to unset }) to the environment
   * it starts with from now on, restarts after a crash included, and removes the file.
   */
  takeEnvChanges() {
    const file = join(this.supervisor.plan.holdsDir, `${this.spec.name}.env.json`);
    if (!existsSync(file)) return;
    const changes = JSON.parse(readFileSync(file, 'utf8'));
    const env = { ...this.spec.env };
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) delete env[key];
      else env[key] = value;
    }
    this.spec = { ...this.spec, env };
    rmSync(file);
  }

  async launch() {
    if (this.spec.scratchDir) mkdirSync(this.spec.scratchDir, { recursive: true });
    const fd = openSync(this.spec.log, 'a');
    try {
      const child = spawn(
        process.execPath,
        ['--enable-source-maps', ...this.spec.nodeArgs, this.spec.script],
        {
          cwd: this.spec.cwd,
          env: this.spec.env,
          stdio: ['ignore', fd, fd],
        },
      );
      const exited = new Promise((done) =>
        child.once('exit', (code, signal) => done(code ?? (signal === 'SIGKILL' ? 137 : 128))),
      );
      this.record = { pid: child.pid, startTicks: startTicks(child.pid), script: this.spec.script };
      return { pid: child.pid, exited };
    } finally {
      closeSync(fd);
    }
  }

  async signal(name) {
    if (!this.record) return;
    if (name === 'SIGKILL') {
      // What it started (a worker's COLMAP) goes with it, as with the end of a container.
      killTree(this.record);
      return;
    }
    try {
      process.kill(this.record.pid, name);
    } catch {
      // already gone
    }
  }

  keepDown() {
    if (!this.held) return false;
    this.state = 'held';
    this.reason = 'scaled to zero';
    this.changed();
    return true;
  }

  /** Ends a held process; starts one whose hold was lifted. */
  async followHold() {
    const held = this.held;
    if (held && this.state === 'running') await this.kill('held');
    else if (held && this.state === 'waiting') {
      clearTimeout(this.restartTimer);
      this.keepDown();
    } else if (!held && this.state === 'held') {
      this.restarts += 1;
      this.takeEnvChanges();
      await this.start().catch((err) => this.failedToStart(err));
    }
  }

  status() {
    const { name, kind, index, log, opsPort } = this.spec;
    return {
      name,
      kind,
      index,
      log,
      opsPort,
      ...super.status(),
      startTicks: this.pid ? this.record?.startTicks : undefined,
      script: this.spec.script,
    };
  }
}

export class ProcessSupervisor {
  /** @param {object} plan { statusFile, holdsDir, units: spec[], backoff?, parentPid? } */
  constructor(plan) {
    this.plan = plan;
    this.stopping = false;
    this.units = plan.units.map((spec) => new ProcessUnit(this, spec));
  }

  changed() {
    const status = {
      supervisorPid: process.pid,
      stopping: this.stopping,
      updatedAt: new Date().toISOString(),
      processes: this.units.map((u) => u.status()),
    };
    const partial = `${this.plan.statusFile}.partial`;
    writeFileSync(partial, `${JSON.stringify(status, null, 2)}\n`);
    renameSync(partial, this.plan.statusFile);
  }

  async start() {
    mkdirSync(this.plan.holdsDir, { recursive: true });
    this.changed();
    await Promise.all(this.units.map((u) => u.start().catch((err) => u.failedToStart(err))));
    let following = false;
    this.holdTimer = setInterval(async () => {
      if (following || this.stopping) return;
      following = true;
      try {
        await Promise.all(this.units.map((u) => u.followHold()));
      } finally {
        following = false;
      }
    }, HOLD_POLL_MS);
  }

  /** The gateway first, so no request arrives at a service that is already gone; then the rest at once. */
  async stop() {
    this.stopping = true;
    clearInterval(this.holdTimer);
    this.changed();
    const gateway = this.units.filter((u) => u.spec.kind === 'gateway');
    await Promise.all(gateway.map((u) => u.stop()));
    await Promise.all(this.units.filter((u) => u.spec.kind !== 'gateway').map((u) => u.stop()));
    this.changed();
  }

  /** Ends everything at once with SIGKILL: the process that started an attached cluster is gone. */
  killAll() {
    this.stopping = true;
    clearInterval(this.holdTimer);
    for (const unit of this.units) if (unit.record) killTree(unit.record);
  }
}
