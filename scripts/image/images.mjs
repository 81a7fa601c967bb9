// The names of the images built on this machine (`npm run image -- build`), in one place: the
// build, the image tests and the OCI supervisor read them from here, so they cannot disagree.
//
//   localhost/fieldops:dev          the runtime target: every process kind but the COLMAP worker
//   localhost/fieldops-worker:dev   the worker target: the runtime plus COLMAP, for the kinds whose
//                                   topology.yaml `image` is worker (the capture workers)
//   localhost/fieldops-base:<key>   the Node base both are built FROM (scripts/image/base.mjs)
//
// `dev` is the tag every build moves, so a reader never has to find the newest build; a build from
// a clean working tree also tags the commit (the first 12 hex digits), which stays put.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { readTopology } from '../topology.mjs';

const root = resolve(import.meta.dirname, '..', '..');

export const DEFAULT_TAG = 'dev';

/** Dockerfile target → the repository its image is tagged in. */
export const IMAGES = {
  runtime: 'localhost/fieldops',
  worker: 'localhost/fieldops-worker',
};

export const BASE_REPOSITORY = 'localhost/fieldops-base';

/** The reference of a target's image, e.g. imageRef('worker') → localhost/fieldops-worker:dev. */
export function imageRef(target, tag = DEFAULT_TAG) {
  const repository = IMAGES[target];
  if (!repository)
    throw new Error(`no image target "${target}" (targets: ${Object.keys(IMAGES).join(', ')})`);
  return `${repository}:${tag}`;
}

/** Topology's image of a kind (app, or worker with COLMAP) → the Dockerfile target that builds it. */
export const TOPOLOGY_TARGETS = { app: 'runtime', worker: 'worker' };

/**
 * The image a process kind runs from, as charts/fieldops/topology.yaml says (its `image`); a job
 * (store-migrate), which topology does not list, runs from the runtime image as the chart's Job does.
 */
export function imageForKind(processName, tag = DEFAULT_TAG) {
  const kind = readTopology().find((k) => k.process === processName);
  return imageRef(TOPOLOGY_TARGETS[kind?.image ?? 'app'], tag);
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
