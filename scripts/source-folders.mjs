// The folders a process's code is read from when Node runs the TypeScript sources as they are (type
// stripping): every npm workspace. node_modules/@fieldops/* link to them, and Node loads a module
// from its real path, so a process under --permission reads them there (scripts/permissions.mjs
// grants them as its code, with node_modules).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

/** @returns {string[]} the workspaces' folders, absolute, in package.json's order */
export function sourceFolders(repo = root) {
  const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
  return manifest.workspaces.map((workspace) => join(repo, workspace));
}
