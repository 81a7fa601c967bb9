#!/usr/bin/env node
// One JavaScript file per process kind, for the container image (Dockerfile) and its tests. Node
// runs the workspaces' TypeScript as it is (type stripping), and everything but the image does;
// the image keeps bundles because a kind loads one file faster than hundreds of sources
// (docs/decisions.md, "TypeScript on Node's own type stripping"). esbuild compiles each entry point
// together with the @fieldops/* workspaces it imports into dist/<kind>.mjs. Every other package stays an import of node_modules: the image
// installs those with `npm ci --omit=dev`, so native code, data files and licences ship as their
// packages publish them.
//
//   node scripts/build-bundles.mjs [outdir]      # default: dist/
//
// The kinds are those of charts/fieldops/topology.yaml (scripts/topology.mjs), the list the chart
// deploys and `npm run cluster` runs; JOBS adds the one-shot commands (the index migration). The
// one-process platform (platform/, `npm start`) is for development and is not a kind.
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { JOBS, readTopology } from './topology.mjs';

const root = resolve(import.meta.dirname, '..');

/** @returns {Record<string, string>} process kind → entry point, relative to the repository root */
export function processKinds() {
  return Object.fromEntries(readTopology().map((kind) => [kind.process, kind.entry]));
}

export { JOBS };

/** @returns {Record<string, string>} every bundle of the image (the process kinds and the jobs) → entry point */
export function bundleEntries() {
  return { ...processKinds(), ...JOBS };
}

// Bundle our own workspaces, leave every published package to node_modules.
const externalPackages = {
  name: 'external-packages',
  setup(onBuild) {
    onBuild.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@fieldops/') ? undefined : { path: args.path, external: true },
    );
  },
};

/**
 * Modules that read a text file beside them at start (a browser script the gateway serves as it
 * is) → that file. A bundle has no source folder to read from, so each such module is replaced
 * by one that exports the file's text; the module and this map name the same export.
 * @type {Record<string, { file: string, name: string }>} module → text file and export, from the root
 */
export const TEXT_ASSETS = {
  'gateway/src/console/console-script.ts': {
    file: 'gateway/src/console/console.browser.js',
    name: 'CONSOLE_SCRIPT',
  },
};

const inlineTextAssets = {
  name: 'inline-text-assets',
  setup(onBuild) {
    const byPath = new Map(Object.entries(TEXT_ASSETS).map(([module, asset]) => [join(root, module), asset]));
    onBuild.onLoad({ filter: /\.ts$/ }, (args) => {
      const asset = byPath.get(args.path);
      if (!asset) return undefined;
      const text = readFileSync(join(root, asset.file), 'utf8');
      return { contents: `export const ${asset.name} = ${JSON.stringify(text)};\n`, loader: 'js' };
    });
  },
};

/**
 * Writes <outdir>/<kind>.mjs for every kind and job. Returns each kind's bundle path and the packages it
 * imports at run time (the image must install them: see test/deploy/dockerfile.test.ts).
 */
export async function buildBundles(outdir = join(root, 'dist')) {
  const kinds = bundleEntries();
  const result = await build({
    absWorkingDir: root,
    entryPoints: Object.entries(kinds).map(([kind, entry]) => ({ in: entry, out: kind })),
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    sourcemap: 'linked',
    // Stack traces and logged errors keep the source's class and function names.
    keepNames: true,
    metafile: true,
    logLevel: 'warning',
    plugins: [externalPackages, inlineTextAssets],
  });
  const bundles = {};
  for (const kind of Object.keys(kinds)) {
    const file = join(outdir, `${kind}.mjs`);
    const output = result.metafile.outputs[relative(root, file)];
    const imports = (output?.imports ?? []).filter((i) => i.external).map((i) => i.path);
    bundles[kind] = { file, imports: [...new Set(imports)].sort() };
  }
  return bundles;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const bundles = await buildBundles(process.argv[2] ? resolve(process.argv[2]) : undefined);
  for (const [kind, { file }] of Object.entries(bundles)) console.log(`${kind}\t${relative(root, file)}`);
}
