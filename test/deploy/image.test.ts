// The images `npm run image -- build` made on this machine, run as they will run: each mounted with
// scripts/image/mount.mjs and started with runc on a read-only root, as uid 1000, a tmpfs at /tmp.
// It does not build (a build takes minutes): CI builds first, then runs it.
//
//   npm run image -- build
//   FIELDOPS_TEST_IMAGES=1 node --experimental-vm-modules node_modules/jest/bin/jest.js test/deploy/image.test.ts
//
// Without FIELDOPS_TEST_IMAGES=1 (as in `npm test`) the suite shows up as skipped, with the reason
// in its title. With it, a missing image, buildah or runc fails every test: nothing is skipped.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PNG } from 'pngjs';
import { EXIT_CONFIG } from '@fieldops/kit/process';
import { baseInputs } from '../../scripts/image/base.mjs';
import { imageRef } from '../../scripts/image/images.mjs';
import { mountImage, overlayEnv, processArgs, resolveUser } from '../../scripts/image/mount.mjs';
import type { MountedImage } from '../../scripts/image/mount.mjs';
import { bundleEntries } from '../../scripts/build-bundles.mjs';
import { pinnedRuntime } from '../../scripts/node-runtime.mjs';

const exec = promisify(execFile);
const enabled = process.env['FIELDOPS_TEST_IMAGES'] === '1';
const suite = enabled ? describe : describe.skip;
const titled = (name: string) =>
  enabled ? name : `${name} (skipped: FIELDOPS_TEST_IMAGES is not 1; run it after npm run image -- build)`;

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}
interface RunOptions {
  env?: Record<string, string>;
  /** Host directories bound read-write into the container. */
  binds?: { source: string; destination: string }[];
  timeoutMs?: number;
}

let containers = 0;

/** An OCI config from `runc spec`, made to run `args` in the image as its own user, root read-only. */
async function bundleFor(image: MountedImage, bundle: string, args: string[], options: RunOptions) {
  await exec('runc', ['spec', '--bundle', bundle]);
  const spec = JSON.parse(await readFile(join(bundle, 'config.json'), 'utf8'));
  // The process keeps runc's own limits. This machine lacks CAP_SYS_RESOURCE, so a spec that raised
  // RLIMIT_NOFILE above the hard limit here (20000), as podman's 1048576 does, could not start.
  delete spec.process.rlimits;
  spec.process = {
    ...spec.process,
    terminal: false,
    args,
    env: overlayEnv(image.config.env, options.env),
    cwd: image.config.workingDir,
    user: resolveUser(image.rootfs, image.config.user),
  };
  spec.root = { path: image.rootfs, readonly: true };
  spec.mounts.push({
    destination: '/tmp',
    type: 'tmpfs',
    source: 'tmpfs',
    options: ['nosuid', 'nodev', 'mode=1777', 'size=256m'],
  });
  for (const { source, destination } of options.binds ?? []) {
    spec.mounts.push({ destination, type: 'bind', source, options: ['rbind', 'rw'] });
  }
  await writeFile(join(bundle, 'config.json'), JSON.stringify(spec));
}

/** Runs `args` in a container of its own on the image's mounted rootfs; resolves when it ends. */
async function runIn(image: MountedImage, args: string[], options: RunOptions = {}): Promise<Ran> {
  const bundle = await mkdtemp(join(tmpdir(), 'fieldops-runc-'));
  const id = `fieldops-image-test-${process.pid}-${++containers}`;
  try {
    await bundleFor(image, bundle, args, options);
    const timeout = options.timeoutMs ?? 60_000;
    const { stdout, stderr } = await exec('runc', ['run', '--bundle', bundle, id], { timeout });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number | string; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  } finally {
    await exec('runc', ['delete', '--force', id]).catch(() => undefined);
    await rm(bundle, { recursive: true, force: true });
  }
}

const baseKeyOf = async (ref: string) => {
  const { stdout } = await exec('buildah', ['inspect', '--type', 'image', ref]);
  return (JSON.parse(stdout) as { OCIv1: { config: { Labels?: Record<string, string> } } }).OCIv1.config
    .Labels?.['fieldops.base.key'];
};

suite(titled('the runtime image'), () => {
  let image: MountedImage;
  beforeAll(async () => {
    image = await mountImage(imageRef('runtime'));
  }, 60_000);
  afterAll(() => image?.release());

  test('was built on the base of the current inputs (the pinned Node, npm, Debian)', async () => {
    expect(await baseKeyOf(imageRef('runtime'))).toBe((await baseInputs()).key);
  });

  test("runs node on the pinned line as uid 1000, the image's own user", async () => {
    expect(image.config.user).toBe('1000:1000');
    const ran = await runIn(image, ['sh', '-c', 'id -u; id -g; node --version']);
    expect(ran).toEqual({ code: 0, stdout: `1000\n1000\nv${pinnedRuntime().pinned}\n`, stderr: '' });
  });

  test('holds the bundle of every process kind and job under /app/dist', async () => {
    const ran = await runIn(image, ['ls', '/app/dist']);
    expect(ran.code).toBe(0);
    const files = ran.stdout.split('\n');
    for (const kind of Object.keys(bundleEntries())) expect(files).toContain(`${kind}.mjs`);
  });

  test('starts the gateway with its ENTRYPOINT and CMD, which refuses to run split without its settings', async () => {
    const args = processArgs(image.config);
    expect(args).toEqual(['node', '--enable-source-maps', '/app/dist/gateway.mjs']);
    const ran = await runIn(image, args, { env: { LOG_LEVEL: 'warn' } });
    expect(ran.code).toBe(EXIT_CONFIG);
    expect(ran.stderr).toContain('fieldops gateway cannot run as its own process');
    expect(ran.stderr).toMatch(/[A-Z_]+ is not set: /);
  });

  test('serves several containers from one mounted rootfs at once, read-only to each', async () => {
    // Each writes its own /tmp (a tmpfs of its own) and cannot write the shared root.
    const script =
      "const fs = require('node:fs'); fs.writeFileSync('/tmp/who', process.argv[1]);" +
      "try { fs.writeFileSync('/app/written', 'x'); console.log('wrote /app'); } catch (e) { console.log(e.code); }" +
      "console.log(fs.readFileSync('/tmp/who', 'utf8'));";
    const names = ['one', 'two', 'three'];
    const runs = await Promise.all(names.map((name) => runIn(image, ['node', '-e', script, name])));
    expect(runs.map((ran) => ran.stdout)).toEqual(names.map((name) => `EROFS\n${name}\n`));
    expect(existsSync(join(image.rootfs, 'app', 'written'))).toBe(false);
  });

  test("trusts Debian's CAs only: the build machine's own CAs were bound in for the build steps, not kept", async () => {
    // Each CA this machine adds (/usr/local/share/ca-certificates: here, its TLS proxy's) is in
    // the host's bundle, which the build binds over the image's for RUN steps only.
    const dir = '/usr/local/share/ca-certificates';
    const local = existsSync(dir) ? readdirSync(dir).filter((file) => file.endsWith('.crt')) : [];
    const bundle = readFileSync(join(image.rootfs, 'etc/ssl/certs/ca-certificates.crt'), 'utf8');
    expect(bundle).toContain('-----BEGIN CERTIFICATE-----');
    for (const file of local) {
      const body = readFileSync(join(dir, file), 'utf8').split('\n').slice(1, 4).join('\n');
      expect({ file, inImage: bundle.includes(body) }).toEqual({ file, inImage: false });
    }
  });
});

/** A grey-level photo of random overlapping discs, textured enough for SIFT; `shift` moves it right. */
function photo(seed: number, shift: number): Buffer {
  let state = seed;
  const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const discs = Array.from({ length: 400 }, () => ({
    x: random() * 700,
    y: random() * 480,
    r: 4 + random() * 24,
    v: Math.floor(random() * 255),
  }));
  const png = new PNG({ width: 640, height: 480 });
  for (let y = 0; y < 480; y++) {
    for (let x = 0; x < 640; x++) {
      const hit = discs.findLast((d) => (x + shift - d.x) ** 2 + (y - d.y) ** 2 < d.r ** 2);
      const i = (y * 640 + x) * 4;
      png.data[i] = png.data[i + 1] = png.data[i + 2] = hit?.v ?? 128;
      png.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}

suite(titled('the worker image'), () => {
  let image: MountedImage;
  beforeAll(async () => {
    image = await mountImage(imageRef('worker'));
  }, 60_000);
  afterAll(() => image?.release());

  test("is the runtime's image with COLMAP: same user and entrypoint, the capture worker its command", async () => {
    expect(await baseKeyOf(imageRef('worker'))).toBe((await baseInputs()).key);
    expect(image.config.user).toBe('1000:1000');
    expect(processArgs(image.config)).toEqual([
      'node',
      '--enable-source-maps',
      '/app/dist/capture-worker.mjs',
    ]);
    expect(image.config.env).toContain('QT_QPA_PLATFORM=offscreen');
  });

  test("keeps no apt downloads, caches or lists from COLMAP's install, nor manuals (the slim images' rules)", () => {
    const left = (dir: string) =>
      readdirSync(join(image.rootfs, dir)).filter((f) => !['lock', 'partial'].includes(f));
    expect(left('var/cache/apt/archives')).toEqual([]);
    expect(left('var/cache/apt')).toEqual(['archives']);
    expect(left('var/lib/apt/lists')).toEqual([]);
    expect(left('usr/share/man')).toEqual([]);
    // Only each package's copyright stays of its documentation.
    const docs = readdirSync(join(image.rootfs, 'usr/share/doc/colmap'));
    expect(docs).toEqual(['copyright']);
  });

  test('answers `colmap help` as uid 1000, as the capture worker checks at start', async () => {
    const ran = await runIn(image, ['sh', '-c', 'id -u && colmap help']);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/^1000\nCOLMAP \d+\.\d+/);
  });

  test('extracts and matches SIFT features on the CPU, with the options the COLMAP engine passes', async () => {
    // services/capture/src/worker/colmap/steps.ts: SiftExtraction/SiftMatching.use_gpu 0.
    const work = await mkdtemp(join(tmpdir(), 'fieldops-colmap-'));
    try {
      await mkdir(join(work, 'images'));
      await writeFile(join(work, 'images', 'a.png'), photo(7, 0));
      await writeFile(join(work, 'images', 'b.png'), photo(7, 60));
      await chmod(work, 0o777);
      await chmod(join(work, 'images'), 0o777);
      const binds = [{ source: work, destination: '/work' }];
      const colmap = (command: string, options: Record<string, string | number>) =>
        runIn(
          image,
          [
            'colmap',
            command,
            ...Object.entries(options).flatMap(([name, value]) => [`--${name}`, `${value}`]),
          ],
          { binds, timeoutMs: 120_000 },
        );
      const extracted = await colmap('feature_extractor', {
        database_path: '/work/db.db',
        image_path: '/work/images',
        'SiftExtraction.use_gpu': 0,
        'SiftExtraction.num_threads': 2,
      });
      expect({ code: extracted.code, tail: extracted.stderr.slice(-400) }).toEqual({
        code: 0,
        tail: expect.any(String),
      });
      const matched = await colmap('exhaustive_matcher', {
        database_path: '/work/db.db',
        'SiftMatching.use_gpu': 0,
        'SiftMatching.num_threads': 2,
      });
      expect({ code: matched.code, tail: matched.stderr.slice(-400) }).toEqual({
        code: 0,
        tail: expect.any(String),
      });
      // COLMAP's database: keypoints for both photos, and the pair verified with inlier matches
      // (b is a shifted view of a). node:sqlite is Node 24's, the pinned line.
      const { DatabaseSync } = await import('node:sqlite');
      const db = new DatabaseSync(join(work, 'db.db'), { readOnly: true });
      try {
        const keypoints = db.prepare('SELECT rows FROM keypoints ORDER BY image_id').all();
        expect(keypoints).toHaveLength(2);
        for (const { rows } of keypoints) expect(rows).toBeGreaterThan(100);
        const pairs = db.prepare('SELECT rows FROM two_view_geometries').all();
        expect(pairs).toHaveLength(1);
        expect(pairs[0]!['rows']).toBeGreaterThan(30);
      } finally {
        db.close();
      }
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }, 240_000);
});
