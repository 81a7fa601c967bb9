// The container image, checked without Docker (there is none on these machines): the Dockerfile
// read with dockerfile-ast for what an image review asks (multi-stage, non-root, production
// dependencies only, no secrets baked in), and the bundles its build stage makes, built here the
// same way and started with plain node, as the image's command starts them.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { DockerfileParser } from 'dockerfile-ast';
import type { Copy, Instruction } from 'dockerfile-ast';
import { EXIT_CONFIG } from '@fieldops/kit/process';
import { buildBundles, JOBS, processKinds, TEXT_ASSETS } from '../../scripts/build-bundles.mjs';
import type { Bundle } from '../../scripts/build-bundles.mjs';
import { imageForKind, imageRef } from '../../scripts/image/images.mjs';
import { pinnedRuntime } from '../../scripts/node-runtime.mjs';
import { readTopology } from '../../scripts/topology.mjs';
import { copyManifests } from '../../scripts/workspace-manifests.mjs';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const dockerfile = DockerfileParser.parse(readFileSync(join(root, 'Dockerfile'), 'utf8'));

interface Stage {
  name: string;
  instructions: Instruction[];
}

/** The instructions of each build stage, in order. */
function stages(): Stage[] {
  const found: Stage[] = [];
  for (const instruction of dockerfile.getInstructions()) {
    if (instruction.getKeyword() === 'FROM') {
      const name = /\bAS\s+(\S+)/i.exec(instruction.getArgumentsContent() ?? '')?.[1] ?? '';
      found.push({ name, instructions: [] });
    } else found.at(-1)?.instructions.push(instruction);
  }
  return found;
}

const stage = (name: string) => {
  const found = stages().find((s) => s.name === name);
  if (!found) throw new Error(`the Dockerfile has no stage ${name}`);
  return found;
};
const args = (instruction: Instruction) => instruction.getArgumentsContent() ?? '';
const withKeyword = (s: Stage, keyword: string) => s.instructions.filter((i) => i.getKeyword() === keyword);
const runtime = () => stage('runtime');
/** The image or earlier stage a stage is built FROM. */
const baseOf = (name: string) => {
  const from = dockerfile.getFROMs().find((f) => f.getBuildStage() === name);
  if (!from) throw new Error(`the Dockerfile has no stage ${name}`);
  return from.getImageName();
};

describe('the Dockerfile', () => {
  test('is multi-stage: manifests, build and production-dependency stages, and the runtime and worker images', () => {
    expect(stages().map((s) => s.name)).toEqual([
      'manifests',
      'build',
      'prod-deps',
      'runtime-settings',
      'runtime',
      'colmap',
      'worker',
      'default',
    ]);
    // `docker build .` builds the last stage: it must be the runtime image, unchanged, not the worker.
    expect(baseOf('default')).toBe('runtime');
    expect(stage('default').instructions).toEqual([]);
    // The runtime takes only the installed production packages and the bundles, nothing else.
    const copies = withKeyword(runtime(), 'COPY').map(
      (copy) => `${(copy as Copy).getFromFlag()?.getValue()}: ${args(copy)}`,
    );
    expect(copies).toEqual(['prod-deps: /app/node_modules ./node_modules', 'build: /src/dist ./dist']);
    expect(withKeyword(runtime(), 'RUN')).toEqual([]);
  });

  test('installs only production dependencies, from the lockfile, for the image', () => {
    const installs = withKeyword(stage('prod-deps'), 'RUN').map(args);
    expect(installs).toHaveLength(1);
    expect(installs[0]).toMatch(/^npm ci --omit=dev\b/);
    expect(installs[0]).toContain('--ignore-scripts');
    // `npm install` could resolve versions the lockfile does not pin.
    for (const s of stages())
      for (const r of withKeyword(s, 'RUN')) expect(args(r)).not.toMatch(/npm (install|i)\b/);
  });

  test('installs from every workspace manifest, or `npm ci` would refuse the lockfile', async () => {
    // Each install stage starts from the manifests stage's copy, taken before any source.
    expect(withKeyword(stage('manifests'), 'RUN').map(args)).toEqual([
      'node scripts/workspace-manifests.mjs /manifests',
    ]);
    for (const name of ['build', 'prod-deps']) {
      const [first] = stage(name).instructions.filter((i) => i.getKeyword() !== 'WORKDIR');
      expect(`${(first as Copy).getFromFlag()?.getValue()}: ${args(first!)}`).toBe(
        'manifests: /manifests/ ./',
      );
    }
    // ...which holds the lockfile and the package.json of each workspace the root lists.
    const { workspaces } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      workspaces: string[];
    };
    const dir = await mkdtemp(join(tmpdir(), 'fieldops-manifests-'));
    try {
      const copied = copyManifests(dir);
      expect(copied).toEqual(
        expect.arrayContaining([
          'package.json',
          'package-lock.json',
          ...workspaces.map((w) => `${w}/package.json`),
        ]),
      );
      for (const file of copied) {
        expect(readFileSync(join(dir, file), 'utf8')).toBe(readFileSync(join(root, file), 'utf8'));
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('runs as a numeric non-root user, so Kubernetes can verify runAsNonRoot', () => {
    const users = withKeyword(runtime(), 'USER').map(args);
    expect(users).toHaveLength(1);
    const [uid, gid] = users[0]!.split(':').map(Number);
    expect(uid).toBeGreaterThan(0);
    expect(gid).toBeGreaterThan(0);
    // The chart's pods run as that same user.
    const values = readFileSync(join(root, 'charts/fieldops/values.yaml'), 'utf8');
    expect(values).toContain(`runAsUser: ${uid}`);
  });

  test('builds and runs on the pinned Node line, and the bundles target it', () => {
    // docs/decisions.md, "Node 24 LTS": the image, the npm scripts' pinned node and engines agree.
    const { line } = pinnedRuntime();
    const nodeImage = dockerfile
      .getInstructions()
      .filter((i) => i.getKeyword() === 'ARG')
      .map(args)
      .find((a) => a.startsWith('NODE_IMAGE='));
    expect(nodeImage).toBe(`NODE_IMAGE=node:${line}-bookworm-slim`);
    // Every stage starts from the Node image, or from a stage of this file that does.
    const names = stages().map((s) => s.name);
    for (const s of stages()) expect(['${NODE_IMAGE}', ...names]).toContain(baseOf(s.name));
    expect(baseOf('runtime-settings')).toBe('${NODE_IMAGE}');
    expect(baseOf('runtime')).toBe('runtime-settings');
    const bundler = readFileSync(join(root, 'scripts/build-bundles.mjs'), 'utf8');
    expect(bundler).toContain(`target: 'node${line}'`);
  });

  test('starts node directly in exec form, so SIGTERM reaches the process and it can drain', () => {
    const [entrypoint] = withKeyword(runtime(), 'ENTRYPOINT').map(args);
    expect(JSON.parse(entrypoint!)).toEqual(['node', '--enable-source-maps']);
    const [cmd] = withKeyword(runtime(), 'CMD').map(args);
    // The bundles sit where the chart's commands expect them: /app/dist/<kind>.mjs.
    expect(JSON.parse(cmd!)).toEqual(['/app/dist/gateway.mjs']);
    expect(withKeyword(stage('runtime-settings'), 'WORKDIR').map(args)).toEqual(['/app']);
  });

  test('has a worker target: COLMAP, then exactly the runtime’s application, user and entrypoint', () => {
    // COLMAP is installed on the shared settings before any application file, so a change of code
    // rebuilds the worker from the cached COLMAP layer instead of installing it again.
    expect(baseOf('colmap')).toBe('runtime-settings');
    expect(baseOf('worker')).toBe('colmap');
    const colmap = stage('colmap');
    expect(withKeyword(colmap, 'COPY')).toEqual([]);
    // COLMAP from Debian, nothing recommended beside it, and no apt lists left in the layer.
    const installs = withKeyword(colmap, 'RUN').map(args);
    expect(installs).toHaveLength(1);
    expect(installs[0]).toMatch(/apt-get update\b/);
    expect(installs[0]).toMatch(/apt-get install -y --no-install-recommends colmap\b/);
    expect(installs[0]).toMatch(/&& rm -rf \/var\/lib\/apt\/lists\/\*$/);
    // Qt without a display, for COLMAP's command-line steps.
    expect(withKeyword(colmap, 'ENV').map(args)).toContain('QT_QPA_PLATFORM=offscreen');
    // The worker adds what the runtime adds, as the same numeric user with the same entrypoint.
    const worker = stage('worker');
    for (const keyword of ['COPY', 'USER', 'ENTRYPOINT'] as const) {
      expect(withKeyword(worker, keyword).map(args)).toEqual(withKeyword(runtime(), keyword).map(args));
    }
    expect(withKeyword(worker, 'RUN')).toEqual([]);
    const [cmd] = withKeyword(worker, 'CMD').map(args);
    expect(JSON.parse(cmd!)).toEqual(['/app/dist/capture-worker.mjs']);
    // ...a kind topology.yaml runs on the worker image, whose name images.mjs gives the target.
    const onWorker = readTopology().filter((kind) => kind.image === 'worker');
    expect(onWorker.map((kind) => kind.process)).toContain('capture-worker');
    for (const { process } of onWorker) expect(imageForKind(process)).toBe(imageRef('worker'));
    expect(imageForKind('gateway')).toBe(imageRef('runtime'));
    expect(imageForKind('store-migrate')).toBe(imageRef('runtime'));
  });

  test('logs JSON lines even when run with a terminal (docker run -t), for the log collector', () => {
    const env = withKeyword(stage('runtime-settings'), 'ENV').map(args).join(' ');
    expect(env).toMatch(/(^|\s)LOG_FORMAT=json(\s|$)/);
  });

  test('bakes in no secrets: no credential-like ARG or ENV, and no credential files copied', () => {
    const credential = /SECRET|PASSWORD|TOKEN|_KEY|CREDENTIAL|MONGODB_URI|REDIS_URL/i;
    for (const s of stages()) {
      for (const instruction of [...withKeyword(s, 'ARG'), ...withKeyword(s, 'ENV')]) {
        expect(args(instruction)).not.toMatch(credential);
      }
      for (const copy of withKeyword(s, 'COPY')) expect(args(copy)).not.toMatch(/\.env|\.npmrc|\.pem|id_rsa/);
    }
    const ignored = readFileSync(join(root, '.dockerignore'), 'utf8').split('\n');
    for (const pattern of [
      '.env',
      '.env.*',
      '**/.npmrc',
      '**/*.pem',
      '**/.data',
      '.git',
      '**/node_modules',
    ]) {
      expect(ignored).toContain(pattern);
    }
  });
});

describe('the bundles the image runs', () => {
  const outdir = join(root, 'node_modules', '.cache', `fieldops-bundles-test-${process.pid}`);
  let bundles: Record<string, Bundle>;
  beforeAll(async () => {
    // Under node_modules, so the bundles resolve their packages as /app/dist does from /app/node_modules.
    bundles = await buildBundles(outdir);
  }, 60_000);
  afterAll(() => rm(outdir, { recursive: true, force: true }));

  test('there is one per process kind, the gateway included, and one per job', () => {
    expect(Object.keys(bundles).sort()).toEqual(
      [...Object.keys(processKinds()), ...Object.keys(JOBS)].sort(),
    );
    expect(Object.keys(bundles)).toContain('store-migrate');
    expect(Object.keys(bundles)).toEqual(expect.arrayContaining(['gateway', 'crm', 'audit']));
  });

  test('import only node builtins and production dependencies installed at the root of node_modules', () => {
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean; devOptional?: boolean }>;
    };
    for (const [kind, bundle] of Object.entries(bundles)) {
      for (const specifier of bundle.imports) {
        if (specifier.startsWith('node:') || builtinModules.includes(specifier)) continue;
        const parts = specifier.split('/');
        const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
        // `npm ci --omit=dev` installs it, at the top level where /app/dist/<kind>.mjs finds it.
        const entry = lock.packages[`node_modules/${name}`];
        expect({ kind, name, installed: entry !== undefined && !entry.dev }).toEqual({
          kind,
          name,
          installed: true,
        });
      }
    }
  });

  test("the gateway's carries the console's browser script inlined, as the source folder serves it", () => {
    const gateway = readFileSync(bundles.gateway!.file, 'utf8');
    for (const { file } of Object.values(TEXT_ASSETS)) {
      // The bundle has no source folder: it must not read the file, and must carry its text.
      expect(gateway).not.toContain(basename(file));
      const sentence = /'([^']*cannot reach the server[^']*)'/.exec(
        readFileSync(join(root, file), 'utf8'),
      )?.[1];
      expect(sentence).toBeDefined();
      expect(gateway).toContain(sentence!);
    }
  });

  test('each starts under plain node and refuses to run split without its adapters', async () => {
    const results = await Promise.all(
      Object.entries(bundles).map(async ([kind, { file }]) => {
        expect(existsSync(file)).toBe(true);
        try {
          await run(process.execPath, ['--enable-source-maps', file], {
            cwd: '/',
            env: { PATH: process.env.PATH ?? '' },
            // Loading every dependency takes a second or two each; far longer on a loaded machine.
            timeout: 80_000,
          });
          return { kind, code: 0, stderr: '' };
        } catch (err) {
          const failed = err as { code: number; stderr: string };
          return { kind, code: failed.code, stderr: failed.stderr };
        }
      }),
    );
    for (const { kind, code, stderr } of results) {
      // Every module loaded and linked; the process got as far as checking its configuration.
      expect({ kind, code }).toEqual({ kind, code: EXIT_CONFIG });
      if (kind in JOBS) {
        expect(stderr).toContain('MONGODB_URI is not set: ');
        continue;
      }
      expect(stderr).toContain('cannot run as its own process');
      expect(stderr).toMatch(/[A-Z_]+ is not set: /);
    }
  }, 90_000);
});
