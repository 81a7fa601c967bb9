// The data-directory lock against real processes: a second live process is refused (by the lock
// itself and through each embedded engine), while a holder that died (SIGKILL), that is a zombie
// nobody reaped, or whose pid the LOCK file names but which holds nothing (a reused pid) never
// blocks the next open, which happens at once, with no wait.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { openEmbeddedEventLog } from '../src/events/embedded.ts';
import { lockDirectory } from '../src/files/dir-lock.ts';
import { openEmbeddedStore } from '../src/store/embedded.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const HOLDER = join(HERE, 'fixtures', 'hold-dir-lock.ts');
const REPO_ROOT = join(HERE, '..', '..', '..');

let dir: string;
const children: ChildProcess[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'fieldops-dirlock-'));
});

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Resolves with the first line a child prints that matches `pattern`. */
function lineFrom(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const line = buffered.split('\n').find((l) => pattern.test(l));
      if (line !== undefined) resolve(line);
    });
    child.on('exit', (code) =>
      reject(new Error(`the holder exited (${code}) before "${pattern}": ${stderr}`)),
    );
  });
}

/** Starts a process holding the directory (how: lock | store | events); resolves once it holds. */
async function holder(how = 'lock'): Promise<ChildProcess> {
  const child = spawn(process.execPath, [HOLDER, dir, how], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  await lineFrom(child, /^locked$/);
  return child;
}

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));

/** A process whose threads have all exited, left as a zombie (state Z) for its parent to reap. */
function isZombie(pid: number): boolean {
  try {
    // /proc/<pid>/stat: "pid (comm) S ..."; the state follows the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' && readdirSync(`/proc/${pid}/task`).length <= 1;
  } catch {
    return false;
  }
}

describe('the data-directory lock', () => {
  it('refuses a second open in this process, and allows one after release', () => {
    const release = lockDirectory(dir, 'test engine');
    expect(() => lockDirectory(dir, 'test engine')).toThrow(/already open in this process/);
    release();
    lockDirectory(dir, 'test engine')();
  });

  it('refuses while another live process holds it, naming its pid', async () => {
    const child = await holder();
    expect(() => lockDirectory(dir, 'test engine')).toThrow(
      new RegExp(`in use by another running process \\(pid ${child.pid}\\)`),
    );
  });

  it('is free the moment its holder is killed with SIGKILL', async () => {
    const child = await holder();
    child.kill('SIGKILL');
    await exited(child);
    const release = lockDirectory(dir, 'test engine');
    expect(readFileSync(join(dir, 'LOCK'), 'utf8')).toBe(String(process.pid));
    release();
  });

  it('is free when its holder is a zombie that nobody reaped', async () => {
    // sh starts the holder in the background and becomes `sleep`, which never reaps it.
    const parent = spawn(
      'sh',
      ['-c', `"${process.execPath}" "${HOLDER}" "${dir}" lock & echo "pid $!"; exec sleep 600`],
      { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(parent);
    const pid = Number((await lineFrom(parent, /^pid \d+$/)).slice(4));
    await lineFrom(parent, /^locked$/);
    process.kill(pid, 'SIGKILL');
    // Dead once every thread has exited and the leader is left a zombie: wait for that state.
    while (!isZombie(pid)) await new Promise((resolve) => setImmediate(resolve));
    expect(() => process.kill(pid, 0)).not.toThrow(); // a pid check would call it alive
    lockDirectory(dir, 'test engine')();
  });

  it('is free when the LOCK file names a live process that holds nothing (a reused pid)', async () => {
    const bystander = spawn('sleep', ['600'], { stdio: 'ignore' });
    children.push(bystander);
    writeFileSync(join(dir, 'LOCK'), String(bystander.pid));
    const release = lockDirectory(dir, 'test engine');
    expect(readFileSync(join(dir, 'LOCK'), 'utf8')).toBe(String(process.pid));
    release();
  });
});

describe('the embedded engines', () => {
  it('the document store refuses a directory another process has open, and takes it once that one is killed', async () => {
    const child = await holder('store');
    await expect(openEmbeddedStore({ dir })).rejects.toThrow(
      /document store .* in use by another running process/,
    );
    child.kill('SIGKILL');
    await exited(child);
    await (await openEmbeddedStore({ dir })).close();
  });

  it('the event log refuses a directory another process has open, and takes it once that one is killed', async () => {
    const child = await holder('events');
    await expect(openEmbeddedEventLog({ dir })).rejects.toThrow(
      /event log .* in use by another running process/,
    );
    child.kill('SIGKILL');
    await exited(child);
    await (await openEmbeddedEventLog({ dir })).close();
  });
});
