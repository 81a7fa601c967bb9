// The platform as a child process, for the tests that must kill it for real (SIGKILL cannot be
// simulated in-process: in-memory state, open descriptors, locks and timers have to vanish). One
// spawner for every crash test: it runs either the test entry (platform-process.ts, which prints
// one JSON line) or `npm start`'s own entry (platform/src/main.ts, which prints a
// banner), on embedded defaults whatever the developer's environment names, and resolves once the
// platform says where it listens.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { platformCommand } from '../../scripts/start-platform.mjs';
import type { PlatformReady } from './platform-process.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ENTRIES = {
  test: fileURLToPath(new URL('./platform-process.ts', import.meta.url)),
  /** What `npm start` runs (scripts/start-platform.mjs: main.ts under --permission), without npm around it. */
  main: fileURLToPath(new URL('../../platform/src/main.ts', import.meta.url)),
};
/**
 * Start-up loads the platform's sources (Node's type stripping): seconds on a quiet machine, and
 * 46 s was measured for `npm start` on a 2-core machine at load 60 (docs/performance.md). Only a
 * guard against a hang.
 */
const READY_TIMEOUT_MS = 120_000;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface PlatformChild {
  url: string;
  process: ChildProcess;
  exited: Promise<Exit>;
  stderr: () => string;
  /** Every line it wrote to stdout so far (its log lines, at the LOG_LEVEL given in env). */
  stdout: () => string[];
}

export interface SpawnOptions {
  dataDir: string;
  adminSecret: string;
  /** Which entry to run; default the test entry. */
  entry?: keyof typeof ENTRIES;
  /** More environment (e.g. webhook timings). */
  env?: Record<string, string>;
  /** How long it may take to listen; default READY_TIMEOUT_MS. */
  readyTimeoutMs?: number;
}

/**
 * The URL from the line a platform prints once listening: the test entry's JSON, or main.ts's
 * banner. Log lines (LOG_LEVEL above silent) may come before it and name none.
 */
function urlOf(line: string): string | undefined {
  if (line.startsWith('{')) return (JSON.parse(line) as Partial<PlatformReady>).url;
  return /listening on (http:\/\/\S+)/.exec(line)?.[1];
}

/** Starts the platform on `dataDir`; resolves once it listens. */
export async function spawnPlatform(options: SpawnOptions): Promise<PlatformChild> {
  const env = {
    ...process.env,
    FIELDOPS_DATA_DIR: options.dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'silent',
    FIELDOPS_ADMIN_SECRET: options.adminSecret,
    FIELDOPS_RATE_READS_PER_MIN: '1000000',
    FIELDOPS_RATE_WRITES_PER_MIN: '1000000',
    // Blank means "embedded default": a developer's own adapter URLs must not leak in.
    REDIS_URL: '',
    MONGODB_URI: '',
    KAFKA_BROKERS: '',
    ...options.env,
  };
  // `npm start`'s entry runs as npm start runs it: fenced by the union of the kinds' grants.
  const fenced = options.entry === 'main' ? platformCommand(env, REPO_ROOT) : undefined;
  for (const folder of fenced?.folders ?? []) mkdirSync(folder, { recursive: true, mode: 0o700 });
  const proc = spawn(process.execPath, fenced?.args ?? [ENTRIES[options.entry ?? 'test']], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: fenced?.env ?? env,
  });
  const exited = new Promise<Exit>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let stderr = '';
  proc.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const lines = createInterface({ input: proc.stdout as NodeJS.ReadableStream });
  const stdout: string[] = [];
  lines.on('line', (line) => stdout.push(line));
  const listening = new Promise<string>((resolve, reject) => {
    const onLine = (line: string) => {
      const found = urlOf(line);
      if (found === undefined && line.startsWith('{') && line.includes('"level"')) return;
      lines.off('line', onLine);
      if (found) resolve(found);
      else reject(new Error(`the platform printed ${line} instead of its address`));
    };
    lines.on('line', onLine);
    void exited.then(({ code, signal }) =>
      reject(new Error(`the platform exited (${code ?? signal}) before listening:\n${stderr}`)),
    );
    const timeoutMs = options.readyTimeoutMs ?? READY_TIMEOUT_MS;
    setTimeout(
      () => reject(new Error(`the platform did not listen within ${timeoutMs} ms:\n${stderr}`)),
      timeoutMs,
    ).unref();
  });
  // A child that never came up is not left behind: the test fails, and nothing outlives it.
  const url = await listening.catch((error: unknown) => {
    proc.kill('SIGKILL');
    throw error;
  });
  return { url, process: proc, exited, stderr: () => stderr, stdout: () => [...stdout] };
}

/** SIGKILL: no handler runs, nothing is flushed or closed. Resolves with how it exited. */
export function killHard(child: PlatformChild): Promise<Exit> {
  child.process.kill('SIGKILL');
  return child.exited;
}

/** SIGTERM; resolves with how it exited (a clean stop is code 0). */
export function stopGently(child: PlatformChild): Promise<Exit> {
  child.process.kill('SIGTERM');
  return child.exited;
}
