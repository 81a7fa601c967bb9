// The platform for `npm run load`, as its own process (so it never shares an event loop with the
// load generator) on a temporary data dir, with the request limits and the compute budget raised
// far above what a run sends: the runner measures the pipeline, not 429s. It reuses the test
// suite's platform process (test/support/platform-process.ts), which prints one JSON line
// {url, adminSecret, pid} once listening; the platform's own log goes to a file.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ENTRY = fileURLToPath(new URL('../../test/support/platform-process.ts', import.meta.url));
const STARTUP_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;
const NO_LIMIT = '1000000';

export interface LocalPlatform {
  url: string;
  adminSecret: string;
  dataDir: string;
  logFile: string;
  stop(options?: { keep?: boolean }): Promise<void>;
}

function waitForReady(
  child: ChildProcess,
  log: NodeJS.WritableStream,
): Promise<{ url: string; adminSecret: string }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('the platform did not start in time')),
      STARTUP_TIMEOUT_MS,
    );
    let ready = false;
    // Every line after the ready one is the platform's log: keep draining it, or the pipe fills.
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!ready) {
        const parsed = (() => {
          try {
            return JSON.parse(line) as Record<string, unknown>;
          } catch {
            return {};
          }
        })();
        if (typeof parsed.url === 'string' && typeof parsed.adminSecret === 'string' && 'pid' in parsed) {
          ready = true;
          clearTimeout(timer);
          resolve({ url: parsed.url, adminSecret: parsed.adminSecret });
          return;
        }
      }
      log.write(`${line}\n`);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (!ready) reject(new Error(`the platform exited (${code ?? 'signal'}) before it was listening`));
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function startLocalPlatform(): Promise<LocalPlatform> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fieldops-load-'));
  const logFile = join(dataDir, 'platform.log');
  const log = createWriteStream(logFile);
  const child = spawn(process.execPath, [ENTRY], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      FIELDOPS_DATA_DIR: join(dataDir, 'data'),
      FIELDOPS_ADMIN_SECRET: randomBytes(24).toString('hex'),
      FIELDOPS_RATE_READS_PER_MIN: NO_LIMIT,
      FIELDOPS_RATE_WRITES_PER_MIN: NO_LIMIT,
      FIELDOPS_BUDGET_COMPUTE: NO_LIMIT,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = async (options: { keep?: boolean } = {}) => {
    await stopChild(child);
    log.end();
    if (!options.keep) rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const ready = await waitForReady(child, log);
    return { ...ready, dataDir, logFile, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
