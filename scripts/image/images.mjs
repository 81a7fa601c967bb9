// The names of the images built on this machine (`npm run image -- build`), in one place: the
// build, the image tests and the OCI supervisor read them from here, so they cannot disagree.
//
//   localhost/fieldops:dev          the runtime target: every process kind but the COLMAP worker
//   localhost/fieldops-worker:dev   the worker target: the runtime plus COLMAP, for capture-worker
//   localhost/fieldops-base:<key>   the Node base both are built FROM (scripts/image/base.mjs)
//
// `dev` is the tag every build moves, so a reader never has to find the newest build; a build from
// a clean working tree also tags the commit (the first 12 hex digits), which stays put.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..');

export const DEFAULT_TAG = 'dev';

/** Dockerfile target → the repository its image is tagged in. */
export const IMAGES = {
  runtime: 'localhost/fieldops',
  worker: 'localhost/fieldops-worker',
};

export const BASE_REPOSITORY = 'localhost/fieldops-base';

/** Process kinds that need COLMAP, and so run from the worker image. */
export const WORKER_KINDS = ['capture-worker'];

/** The reference of a target's image, e.g. imageRef('worker') → localhost/fieldops-worker:dev. */
export function imageRef(target, tag = DEFAULT_TAG) {
  const repository = IMAGES[target];
  if (!repository)
    throw new Error(`no image target "${target}" (targets: ${Object.keys(IMAGES).join(', ')})`);
  return `${repository}:${tag}`;
}

/** The image a process kind runs from (the kinds of charts/fieldops/topology.yaml). */
export function imageForKind(kind, tag = DEFAULT_TAG) {
  return imageRef(WORKER_KINDS.includes(kind) ? 'worker' : 'runtime', tag);
}

/**
 * The tags a build gets: `dev`, and the commit when the working tree is clean (an image tagged
 * with a commit must hold exactly that commit, so uncommitted or untracked files forbid it).
 */
export function buildTags(repo = root) {
  const git = (...args) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();
  try {
    const clean = git('status', '--porcelain', '--untracked-files=normal') === '';
    return clean ? [DEFAULT_TAG, git('rev-parse', '--short=12', 'HEAD')] : [DEFAULT_TAG];
  } catch {
    // Not a git checkout (an unpacked source archive): only the moving tag.
    return [DEFAULT_TAG];
  }
}
