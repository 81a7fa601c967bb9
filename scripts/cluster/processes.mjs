// Starting, recognising and ending the cluster's OS processes. A pid alone proves nothing (pids are
// reused), so each process is recorded with its start time from /proc/<pid>/stat and the script it
// runs; only a live process matching both is ours to report as running or to signal.
import { spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** The start time of `pid` in clock ticks since boot (field 22 of /proc/<pid>/stat), or undefined. */
export function startTicks(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19];
  } catch {
    return undefined;
  }
}

/** The command line of a live process, or undefined. */
export function commandLine(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return undefined;
  }
}

/** True when `record` ({pid, startTicks, script}) is still that very process, not a reused pid. */
export function isRunning(record) {
  if (!record?.pid || startTicks(record.pid) !== record.startTicks) return false;
  try {
    const state = readFileSync(`/proc/${record.pid}/stat`, 'utf8');
    // A zombie has exited; its parent just has not reaped it yet.
    if (state.slice(state.lastIndexOf(')') + 2).startsWith('Z')) return false;
    return readFileSync(`/proc/${record.pid}/cmdline`, 'utf8').split('\0').includes(record.script);
  } catch {
    return false;
  }
}

/**
 * Runs `node --enable-source-maps <nodeArgs> <script> <args>` (a kind's entry source, or the
 * supervisor), its output appended to `log`. Detached processes get their own process
 * group and outlive the command that started them. The record names the script, which isRunning
 * looks for in the command line.
 */
export function spawnProcess({ script, args = [], env, log, cwd, detached, nodeArgs = [] }) {
  const fd = openSync(log, 'a');
  try {
    const child = spawn(process.execPath, ['--enable-source-maps', ...nodeArgs, script, ...args], {
      cwd,
      env,
      detached,
      stdio: ['ignore', fd, fd],
    });
    child.unref();
    return { pid: child.pid, startTicks: startTicks(child.pid), script, log };
  } finally {
    closeSync(fd);
  }
}

/** Every live descendant of `pid` (children first-level from /proc/<pid>/task/<tid>/children). */
export function descendants(pid) {
  let tasks;
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const children = tasks.flatMap((tid) => {
    try {
      return readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    } catch {
      return [];
    }
  });
  return children.map(Number).flatMap((child) => [child, ...descendants(child)]);
}

/**
 * SIGKILLs the process and everything it started (a worker's COLMAP run), as the end of a
 * container does: on one machine a killed worker would otherwise leave its engine running,
 * orphaned. False when it was not running.
 */
export function killTree(record) {
  if (!isRunning(record)) return false;
  const below = descendants(record.pid);
  const killed = signalProcess(record, 'SIGKILL');
  for (const pid of below) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return killed;
}

/** Sends `signal` to the process if it is still ours; false when it was not running. */
export function signalProcess(record, signal) {
  if (!isRunning(record)) return false;
  try {
    process.kill(record.pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM (the process drains and closes its stores), then SIGKILL after `graceMs`. */
export async function endProcess(record, graceMs = 15_000) {
  if (!signalProcess(record, 'SIGTERM')) return false;
  const deadline = Date.now() + graceMs;
  while (isRunning(record) && Date.now() < deadline) await sleep(100);
  if (isRunning(record)) killTree(record);
  while (isRunning(record)) await sleep(50);
  return true;
}

/** The last `lines` lines of a log, for a failure message. */
export function tail(file, lines = 30) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
