// A runnable root filesystem from a built image, for an OCI runtime (runc): `buildah from` makes a
// working container of the image, `buildah mount` gives its merged tree, and the image's config
// (Env, User, WorkingDir, Entrypoint, Cmd) says how to start a process in it. One mount can serve
// several containers at once if each mounts it read-only (runc: root.readonly true); a container
// that wrote to it would change it for the others. release() unmounts and removes the working
// container; buildah's storage keeps the image.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildah } from './buildah.mjs';

/** Working containers made by mountImage are named so: `npm run image -- status` lists leftovers. */
export const MOUNT_PREFIX = 'fieldops-rootfs-';

async function containerConfig(container) {
  const inspected = JSON.parse(await buildah(['inspect', '--type', 'container', container]));
  const config = inspected.OCIv1?.config ?? {};
  return {
    imageId: inspected.FromImageID,
    config: {
      env: config.Env ?? [],
      user: config.User ?? '',
      workingDir: config.WorkingDir || '/',
      entrypoint: config.Entrypoint ?? [],
      cmd: config.Cmd ?? [],
    },
  };
}

/**
 * Mounts `ref` (e.g. imageRef('runtime')) from buildah's local storage; never pulls. Resolves with
 * the rootfs path, the image's config and release(), which may be called more than once.
 */
export async function mountImage(ref) {
  const name = `${MOUNT_PREFIX}${process.pid}-${randomUUID().slice(0, 8)}`;
  await buildah(['from', '--pull=never', '--quiet', '--name', name, ref]);
  let released;
  const release = () => (released ??= buildah(['rm', name]).then(() => undefined));
  try {
    const rootfs = await buildah(['mount', name]);
    const { imageId, config } = await containerConfig(name);
    return { ref, imageId, container: name, rootfs, config, release };
  } catch (error) {
    await release().catch(() => {});
    throw error;
  }
}

/**
 * A container's environment: the image's ENV with `overrides` (a Deployment's env) laid over it,
 * as Kubernetes and Docker do: a name set in both takes the override's value, in the image's place.
 */
export function overlayEnv(imageEnv, overrides = {}) {
  const merged = new Map(imageEnv.map((entry) => [entry.slice(0, entry.indexOf('=')), entry]));
  for (const [name, value] of Object.entries(overrides)) merged.set(name, `${name}=${value}`);
  return [...merged.values()];
}

/**
 * The process's argv as Kubernetes composes it: `command` replaces the image's ENTRYPOINT (and
 * drops its CMD), `args` replaces CMD.
 */
export function processArgs(config, { command, args } = {}) {
  if (command) return [...command, ...(args ?? [])];
  return [...config.entrypoint, ...(args ?? config.cmd)];
}

function lookup(rootfs, file, name) {
  const lines = readFileSync(join(rootfs, 'etc', file), 'utf8').split('\n');
  return lines.map((line) => line.split(':')).find((fields) => fields[0] === name || fields[2] === name);
}

/**
 * The numeric uid and gid of an image's USER ("1000:1000", "node", "node:node", "1000"), names
 * read from the rootfs's /etc/passwd and /etc/group, as a runtime must before it starts the process.
 */
export function resolveUser(rootfs, user) {
  const [who = '', group] = user.split(':');
  if (who === '') return { uid: 0, gid: 0 };
  const passwd = /^\d+$/.test(who) && group !== undefined ? undefined : lookup(rootfs, 'passwd', who);
  const uid = /^\d+$/.test(who) ? Number(who) : Number(passwd?.[2] ?? NaN);
  if (Number.isNaN(uid)) throw new Error(`user "${who}" is not in ${rootfs}/etc/passwd`);
  if (group === undefined) return { uid, gid: Number(passwd?.[3] ?? 0) };
  const gid = /^\d+$/.test(group) ? Number(group) : Number(lookup(rootfs, 'group', group)?.[2] ?? NaN);
  if (Number.isNaN(gid)) throw new Error(`group "${group}" is not in ${rootfs}/etc/group`);
  return { uid, gid };
}
