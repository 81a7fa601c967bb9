// What `npm run image -- status` reports: the images of the current names and base key, older
// bases, and rootfs mounts (mount.mjs) not released.
import { resolve } from 'node:path';
import { baseInputs, cacheDir } from './base.mjs';
import { buildah } from './buildah.mjs';
import { BASE_REPOSITORY, DEFAULT_TAG, imageRef, IMAGES } from './images.mjs';
import { MOUNT_PREFIX } from './mount.mjs';

const root = resolve(import.meta.dirname, '..', '..');

const listJson = async (args) => JSON.parse((await buildah(args)) || 'null') ?? [];

async function baseKeyOf(ref) {
  const inspected = JSON.parse(await buildah(['inspect', '--type', 'image', ref]));
  return inspected.OCIv1?.config?.Labels?.['fieldops.base.key'];
}

/** Whether the process that mounted it still runs (mountImage names the container after its pid). */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

export async function imageStatus({ repo = root, tag = DEFAULT_TAG } = {}) {
  const { key } = await baseInputs(repo);
  const stored = await listJson(['images', '--json']);
  const byName = new Map(stored.flatMap((image) => image.names?.map((name) => [name, image]) ?? []));
  const refs = [`${BASE_REPOSITORY}:${key}`, ...Object.keys(IMAGES).map((target) => imageRef(target, tag))];
  const images = await Promise.all(
    refs.map(async (ref) => {
      const image = byName.get(ref);
      if (!image) return { ref };
      return {
        ref,
        id: image.id,
        size: image.size,
        created: image.createdatraw,
        baseKey: await baseKeyOf(ref),
      };
    }),
  );
  const otherBases = [...byName.keys()].filter(
    (name) => name.startsWith(`${BASE_REPOSITORY}:`) && name !== refs[0],
  );
  const containers = await listJson(['containers', '--json']);
  const mounts = containers
    .map((c) => c.containername)
    .filter((name) => name.startsWith(MOUNT_PREFIX))
    .map((name) => ({ name, pid: Number(name.slice(MOUNT_PREFIX.length).split('-')[0]) }))
    .map(({ name, pid }) => ({ name, pid, alive: alive(pid) }));
  return { baseKey: key, cacheDir: cacheDir(), images, otherBases, mounts };
}
