// The servers process of the benches (scripts/bench/servers.ts) seen from the load process: start it
// as a child with its stdout going to a log file, wait until it reports its targets, ask it to
// prepare and settle around each segment of load, and stop it. Used by `npm run bench` and
// `npm run bench:cluster` (scripts/bench/cluster.ts).
import { fork, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isServersMessage, type LoadMessage, type ReadyMessage, type SettledMessage } from './protocol.ts';

const STARTUP_TIMEOUT_MS = 60_000;
const SHUTDOWN_TIMEOUT_MS = 15_000;

export function startServers(
  dataDir: string,
  logFile: string,
  profileDir: string | undefined,
  env: Record<string, string> = {},
): ChildProcess {
  const entry = fileURLToPath(new URL('./servers.ts', import.meta.url));
  const log = openSync(logFile, 'w');
  try {
    return fork(entry, [], {
      env: {
        ...process.env,
        BENCH_DATA_DIR: dataDir,
        ...(profileDir ? { BENCH_PROFILE_DIR: profileDir } : {}),
        ...env,
      },
      stdio: ['ignore', log, 'inherit', 'ipc'],
    });
  } finally {
    closeSync(log);
  }
}

export function waitForReady(child: ChildProcess, timeoutMs = STARTUP_TIMEOUT_MS): Promise<ReadyMessage> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the servers did not start in time')), timeoutMs);
    child.on('message', (message: unknown) => {
      if (!isServersMessage(message) || message.type === 'settled') return;
      clearTimeout(timer);
      if (message.type === 'ready') resolve(message);
      else reject(new Error(`the servers failed to start:\n${message.error}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the servers process exited (${code ?? 'signal'}) before it was ready`));
    });
  });
}

export function stopServers(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, SHUTDOWN_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    const stop: LoadMessage = { type: 'stop' };
    // A child that failed to start may be closing its channel as we ask: a send that fails then
    // must fall back to a signal, not raise an 'error' that hides why it failed.
    if (child.connected) child.send(stop, (err) => err && child.kill('SIGTERM'));
    else child.kill('SIGTERM');
  });
}

/** Sends the servers process a request and resolves with its answer; one request at a time. */
export function asker(child: ChildProcess): (message: LoadMessage) => Promise<SettledMessage> {
  let pending: { resolve: (message: SettledMessage) => void; reject: (err: Error) => void } | undefined;
  child.on('message', (message: unknown) => {
    if (isServersMessage(message) && message.type === 'settled') pending?.resolve(message);
  });
  child.on('exit', () => pending?.reject(new Error('the servers process exited during the run')));
  return (message) =>
    new Promise((resolve, reject) => {
      pending = { resolve, reject };
      child.send(message);
    });
}
