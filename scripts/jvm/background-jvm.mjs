// What the project's own Java servers (the Kafka broker in scripts/kafka, S3Proxy in scripts/s3)
// share: the pinned release's jars resolved by Maven once, a free port, a JVM started in the
// background with its pid and log in the instance's folder, and a stop that ends exactly that JVM
// (its pid must still be the one whose command line names our main class and configuration file,
// so a recycled pid is never signalled).
import { execFile, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

const STOP_TIMEOUT_MS = 30_000;

/**
 * The classpath of the release `pom` pins in `<versionProperty>`, resolved with `mvn` (jars in
 * ~/.m2) and cached per version under `cacheDir` (default ~/.cache/fieldops/<name>).
 */
export async function resolveMavenClasspath({ pom, versionProperty, name, cacheDir, what }) {
  const dir = cacheDir ?? join(homedir(), '.cache', 'fieldops', name);
  const version = await pinnedVersion(pom, versionProperty);
  const file = join(dir, `classpath-${version}.txt`);
  if (existsSync(file)) {
    const cached = (await readFile(file, 'utf8')).trim();
    if (cached.split(':').every((jar) => existsSync(jar))) return cached;
  }
  await mkdir(dir, { recursive: true });
  try {
    await promisify(execFile)(
      'mvn',
      ['-q', '-B', '-f', pom, 'dependency:build-classpath', `-Dmdep.outputFile=${file}`],
      { maxBuffer: 16 * 1024 * 1024 },
    );
  } catch (error) {
    const output = `${error.stdout ?? ''}${error.stderr ?? ''}`.trim().split('\n').slice(-15).join('\n');
    throw new Error(`mvn could not resolve ${what} ${version} (${pom}):\n${output}`, { cause: error });
  }
  return (await readFile(file, 'utf8')).trim();
}

async function pinnedVersion(pom, property) {
  const text = await readFile(pom, 'utf8');
  const match = new RegExp(`<${property.replaceAll('.', '\\.')}>([^<]+)</`).exec(text);
  if (match === null) throw new Error(`${pom} does not pin <${property}>`);
  return match[1];
}

/** A port nobody listens on right now, from the operating system. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * The instance's fixed facts, chosen on first use (`choose(port)`) and kept in `stateFile`, so a
 * restarted server comes back where its clients expect it. Another port asked of a kept folder is
 * refused: the folder's data belongs to the server it describes.
 */
export async function keptInstance({ dir, stateFile, port, choose, what }) {
  if (existsSync(stateFile)) {
    const state = JSON.parse(await readFile(stateFile, 'utf8'));
    if (port !== undefined && port !== 0 && state.port !== port) {
      throw new Error(
        `${dir} holds ${what} for port ${state.port}, not ${port}; use that port, or stop it and remove the folder`,
      );
    }
    return state;
  }
  const state = await choose(port === undefined || port === 0 ? await freePort() : port);
  await mkdir(dir, { recursive: true });
  await writeFile(stateFile, `${JSON.stringify(state, null, 2)}\n`);
  return state;
}

export async function readPid(file) {
  try {
    const pid = Number((await readFile(file, 'utf8')).trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** True when `pid` is alive and is this instance's JVM: its command line names both. */
export async function isJvmOf(pid, mainClass, configFile) {
  try {
    const cmdline = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
    return cmdline.includes(mainClass) && cmdline.includes(configFile);
  } catch {
    return false;
  }
}

/** The last lines of a log, for an error a person reads. */
export async function tail(file, lines = 20) {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.trim().split('\n').slice(-lines).join('\n');
}

/** Starts `java <jvmArgs> -cp <classpath> <mainClass> <args>` detached, appending to `log`. */
export async function spawnJvm({ classpath, jvmArgs, mainClass, args, log, pidFile }) {
  const out = openSync(log, 'a');
  const child = spawn('java', [...jvmArgs, '-cp', classpath, mainClass, ...args], {
    detached: true,
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  child.unref();
  await writeFile(pidFile, `${child.pid}\n`);
  return child.pid;
}

/** Ends exactly the JVM of `pidFile` (TERM, then KILL after 30 s); false if none of ours ran. */
export async function stopJvm({ pidFile, mainClass, configFile, kill = false }) {
  const pid = await readPid(pidFile);
  if (pid === undefined || !(await isJvmOf(pid, mainClass, configFile))) {
    await rm(pidFile, { force: true });
    return false;
  }
  process.kill(pid, kill ? 'SIGKILL' : 'SIGTERM');
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (await isJvmOf(pid, mainClass, configFile)) {
    if (Date.now() > deadline) process.kill(pid, 'SIGKILL');
    await sleep(100);
  }
  await rm(pidFile, { force: true });
  return true;
}
