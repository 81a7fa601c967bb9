// Builds the Dockerfile's targets with buildah on this machine, FROM the local Node base
// (base.mjs) passed as the Dockerfile's NODE_IMAGE: the same recipe a team with Docker Hub builds
// with `docker build`. --layers keeps each step's layer, so the `npm ci` steps are reused while
// the manifests stage's output (package.json files and the lockfile) does not change.
// --isolation chroot: RUN steps work on this machine that way (docs/decisions.md, issue 31).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ensureBase } from './base.mjs';
import { buildah, imageId } from './buildah.mjs';
import { buildTags, imageRef, IMAGES } from './images.mjs';

const root = resolve(import.meta.dirname, '..', '..');

/** Where the host keeps its CA bundle (Debian's path; FIELDOPS_BUILD_CA_BUNDLE names another). */
export function hostCaBundle() {
  const bundle = process.env.FIELDOPS_BUILD_CA_BUNDLE ?? '/etc/ssl/certs/ca-certificates.crt';
  return existsSync(bundle) ? bundle : undefined;
}

/** The buildah bud arguments of one target, tagged with every tag. */
export function budArgs({ base, target, tags, caBundle = hostCaBundle() }) {
  return [
    'bud',
    ...['--isolation', 'chroot', '--layers'],
    // A failed step's container is removed too: a build leaves no working containers behind.
    '--force-rm',
    // This machine reaches the npm registry through a TLS proxy whose CA only the host's bundle
    // has. Bound over the image's bundle for RUN steps only (the base's npmrc points npm at it),
    // it never enters a layer: the images trust Debian's CAs, not this machine's.
    ...(caBundle ? ['--volume', `${caBundle}:/etc/ssl/certs/ca-certificates.crt:ro`] : []),
    // The base is in local storage; there is no registry to ask whether it is newer.
    '--pull=never',
    ...['--build-arg', `NODE_IMAGE=${base}`],
    ...['--target', target],
    ...tags.flatMap((tag) => ['--tag', imageRef(target, tag)]),
    ...['--file', 'Dockerfile', '.'],
  ];
}

/**
 * Makes (or reuses) the base, then builds each target from the repository root. Resolves with
 * the base and, per target, its references, image id and the seconds its build took.
 */
export async function buildImages({
  repo = root,
  targets = Object.keys(IMAGES),
  tags = buildTags(repo),
  log = console.log,
} = {}) {
  const started = Date.now();
  const base = await ensureBase({ repo, log });
  const baseSeconds = (Date.now() - started) / 1000;
  const images = [];
  for (const target of targets) {
    const begun = Date.now();
    log(`buildah bud --target ${target} FROM ${base.ref}`);
    await buildah(budArgs({ base: base.ref, target, tags }), { inherit: true, cwd: repo });
    const refs = tags.map((tag) => imageRef(target, tag));
    images.push({ target, refs, id: await imageId(refs[0]), seconds: (Date.now() - begun) / 1000 });
  }
  return { base: { ...base, seconds: baseSeconds }, images, seconds: (Date.now() - started) / 1000 };
}
