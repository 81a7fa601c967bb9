#!/usr/bin/env node
// Copies what `npm ci` reads and nothing else, keeping the paths: package.json, package-lock.json
// and each workspace's package.json (the workspaces as the root package.json lists them). The
// Dockerfile installs from this copy, so its install layers are reused until a dependency changes,
// and a new workspace needs no Dockerfile change.
//
//   node scripts/workspace-manifests.mjs <outdir>
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(import.meta.dirname, '..');

/** The manifests `npm ci` needs, relative to the repository root. */
export function workspaceManifests(repo = root) {
  const { workspaces = [] } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
  for (const workspace of workspaces) {
    // A glob would need expanding; the root package.json lists each workspace by path.
    if (/[*?{[]/.test(workspace)) throw new Error(`workspace "${workspace}" is a glob; list it by path`);
  }
  return ['package.json', 'package-lock.json', ...workspaces.map((workspace) => `${workspace}/package.json`)];
}

export function copyManifests(outdir, repo = root) {
  const files = workspaceManifests(repo);
  for (const file of files) {
    mkdirSync(dirname(join(outdir, file)), { recursive: true });
    copyFileSync(join(repo, file), join(outdir, file));
  }
  return files;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outdir = process.argv[2];
  if (!outdir) throw new Error('usage: node scripts/workspace-manifests.mjs <outdir>');
  for (const file of copyManifests(resolve(outdir))) console.log(file);
}
