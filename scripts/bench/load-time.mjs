#!/usr/bin/env node
// How long each process kind takes to load, from its TypeScript sources (Node's type stripping, as
// `npm run cluster` runs it) and from its image bundle (scripts/build-bundles.mjs), both under
// node --permission with the kind's grants: from `node` to the exit on its first configuration
// check (a bad setting given), i.e. every static import loaded and nothing else done. The two runs of
// a kind alternate, so both see the same load. docs/decisions.md, "TypeScript on Node's own type
// stripping".
//
//   node scripts/bench/load-time.mjs [starts per kind, default 3]
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildBundles } from '../build-bundles.mjs';
import { grantsOf, nodeFlags } from '../permissions.mjs';
import { sourceFolders } from '../source-folders.mjs';
import { readTopology } from '../topology.mjs';

const root = resolve(import.meta.dirname, '..', '..');
// Under node_modules, where the bundles resolve their packages as /app/dist does in the image.
const bundles = join(root, 'node_modules', '.cache', 'fieldops-load-time');
const starts = Number(process.argv[2] ?? 3);

const places = (code) => ({
  code,
  dataDir: join(tmpdir(), 'fieldops-load-time'),
  scratchDir: join(tmpdir(), 'fieldops-load-time', 'scratch'),
  awsConfig: join(tmpdir(), 'fieldops-load-time', '.aws'),
  path: [],
  embeddedStore: true,
});

function timed(args) {
  const started = process.hrtime.bigint();
  // A setting the configuration check refuses: the kind exits right after its imports loaded.
  const env = { PATH: process.env.PATH, FIELDOPS_OPS_PORT: 'not-a-port' };
  const run = spawnSync(process.execPath, args, { env, encoding: 'utf8' });
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, status: run.status };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

await buildBundles(bundles);
try {
  for (const kind of readTopology()) {
    const fromSources = nodeFlags(grantsOf(kind, places([...sourceFolders(), join(root, 'node_modules')])));
    const fromBundle = nodeFlags(grantsOf(kind, places([join(root, 'node_modules')])));
    const sources = [];
    const bundle = [];
    for (let i = 0; i < starts; i++) {
      const a = timed([...fromSources, join(root, kind.entry)]);
      const b = timed([...fromBundle, join(bundles, `${kind.process}.mjs`)]);
      if (a.status !== b.status)
        throw new Error(`${kind.process}: exit ${a.status} from sources, ${b.status} from the bundle`);
      sources.push(a.ms);
      bundle.push(b.ms);
    }
    const [s, b] = [median(sources), median(bundle)];
    console.log(
      `${kind.process}\tsources ${(s / 1000).toFixed(1)} s\tbundle ${(b / 1000).toFixed(1)} s\tratio ${(s / b).toFixed(2)}`,
    );
  }
} finally {
  rmSync(bundles, { recursive: true, force: true });
}
