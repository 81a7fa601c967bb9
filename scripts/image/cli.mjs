#!/usr/bin/env node
// `npm run image -- build|status|test`: the project's images, built on this machine with buildah from a
// local Node base (no container registry is reachable here). Names and tags: images.mjs.
//   build    the base (made once per set of inputs, else reused), then the runtime and worker targets
//   status   which images exist: id, size, created, the base key they were built on
//   test     test/deploy/image.test.ts against the built images (FIELDOPS_TEST_IMAGES=1: a missing
//            image fails it), on the pinned Node that npm scripts put first on PATH
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { buildImages } from './build.mjs';
import { imageStatus } from './status.mjs';
import { runSubcommand } from '../subcommand.mjs';

const root = resolve(import.meta.dirname, '..', '..');
const seconds = (s) => `${s.toFixed(1)} s`;

const commands = {
  async build() {
    const { base, images, seconds: total } = await buildImages();
    const made = base.reused ? 'reused' : 'made';
    console.log(`\nbase    ${base.ref} (${made}, ${seconds(base.seconds)})`);
    for (const image of images) {
      console.log(
        `${image.target.padEnd(7)} ${image.refs.join(', ')} ${image.id?.slice(0, 12)} (${seconds(image.seconds)})`,
      );
    }
    console.log(`total   ${seconds(total)}`);
  },
  async status() {
    const status = await imageStatus();
    console.log(`current base key ${status.baseKey} (cache: ${status.cacheDir})`);
    for (const image of status.images) {
      const fields = image.id
        ? `${image.id.slice(0, 12)}  ${image.size}  created ${image.created}  base ${image.baseKey ?? '-'}`
        : 'missing';
      console.log(`${image.ref.padEnd(40)} ${fields}`);
    }
    for (const ref of status.otherBases) console.log(`${ref.padEnd(40)} an older base (another key)`);
    for (const { name, pid, alive } of status.mounts) {
      const owner = alive ? `in use by pid ${pid}` : `pid ${pid} has exited: \`buildah rm ${name}\` frees it`;
      console.log(`mounted rootfs ${name} (${owner})`);
    }
    if (status.images.some((image) => !image.id)) process.exitCode = 3;
  },
  async test() {
    const jest = ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', 'test/deploy/image.test.ts'];
    const env = { ...process.env, FIELDOPS_TEST_IMAGES: '1' };
    const result = spawnSync('node', [...jest, ...process.argv.slice(3)], {
      cwd: root,
      env,
      stdio: 'inherit',
    });
    process.exitCode = result.status ?? 1;
  },
};

runSubcommand(commands, 'npm run image -- build|status|test');
