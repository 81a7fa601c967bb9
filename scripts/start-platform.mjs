#!/usr/bin/env node
// `npm start`: the one-process platform (platform/src/main.ts) on Node's own type stripping, under
// node --permission with the union of every kind's grants (scripts/permissions.mjs unionOf), since
// every kind runs in that one process. Besides the union it may write its data folder itself: the
// one process keeps there what the cluster keeps elsewhere (the operator secret, the embedded blob
// store the S3 server holds in the cluster). docs/security.md, "npm start".
//
// The platform replaces this process (process.execve): no second node stays between the terminal
// and the platform, so Ctrl-C and SIGTERM reach it directly.
//
//   node scripts/start-platform.mjs [--print]   # --print: the command, without running it
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { grantsOf, nodeFlags, outermost, unionOf } from './permissions.mjs';
import { readTopology } from './topology.mjs';
import { sourceFolders } from './source-folders.mjs';

const root = resolve(import.meta.dirname, '..');
export const ENTRY = join(root, 'platform', 'src', 'main.ts');

/**
 * The union of every kind's grants where `npm start` keeps its data (FIELDOPS_DATA_DIR, default
 * ./.data as loadConfig resolves it), plus the data folder itself.
 * @param {NodeJS.ProcessEnv} env
 */
export function platformGrants(env = process.env, cwd = process.cwd()) {
  const dataDir = resolve(cwd, env.FIELDOPS_DATA_DIR ?? './.data');
  const scratchDir = env.FIELDOPS_SCRATCH_DIR ?? join(dataDir, 'scratch');
  const places = {
    code: [...sourceFolders(), join(root, 'node_modules')],
    dataDir,
    scratchDir,
    awsConfig: join(homedir(), '.aws'),
    path: (env.PATH ?? '').split(delimiter).filter(Boolean),
    embeddedStore: !env.MONGODB_URI,
  };
  const union = unionOf(
    readTopology().map((kind) => grantsOf(kind, places)),
    'platform',
  );
  const own = [dataDir, `${dataDir}/*`];
  return {
    grants: {
      ...union,
      read: withoutNested([...union.read, ...own]),
      write: withoutNested([...union.write, ...own]),
    },
    dataDir,
    scratchDir,
  };
}

/**
 * The grants without a folder inside another (the kinds' data folders inside the data folder):
 * Node 24.21 refuses the outer folder itself when both are granted (scripts/permissions.mjs,
 * outermost). A folder granted with its contents (`<dir>/*`) keeps that form.
 */
export function withoutNested(paths) {
  const withContents = new Set(paths.filter((p) => p.endsWith('/*')).map((p) => p.slice(0, -2)));
  const folders = paths.map((p) => (p.endsWith('/*') ? p.slice(0, -2) : p));
  return outermost(folders).flatMap((dir) => (withContents.has(dir) ? [dir, `${dir}/*`] : [dir]));
}

/** The node command line of `npm start`, and the environment it runs with. */
export function platformCommand(env = process.env, cwd = process.cwd()) {
  const { grants, dataDir, scratchDir } = platformGrants(env, cwd);
  const audit = env.FIELDOPS_PERMISSION_AUDIT === '1';
  return {
    args: ['--enable-source-maps', ...nodeFlags(grants, { audit }), ENTRY],
    // A folder granted before it exists would be granted as a file (scripts/permissions.mjs).
    folders: [dataDir, scratchDir],
    env: { ...env, FIELDOPS_DATA_DIR: dataDir, FIELDOPS_SCRATCH_DIR: scratchDir },
  };
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const { args, folders, env } = platformCommand();
  if (process.argv.includes('--print')) {
    console.log([process.execPath, ...args].join(' '));
    process.exit(0);
  }
  for (const folder of folders) mkdirSync(folder, { recursive: true, mode: 0o700 });
  if (typeof process.execve === 'function') {
    process.execve(process.execPath, [process.execPath, ...args], env);
  }
  // A Node without execve: run it as a child and pass signals on.
  const child = spawn(process.execPath, args, { env, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
