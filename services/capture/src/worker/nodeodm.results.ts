// The georeferenced point cloud inside a NodeODM task's all.zip, unpacked from the stored archive.
// NodeODM serves only all.zip (and orthophoto.tif) as assets, so the cloud is read out of the zip:
// the archive is already in the blob store, and yauzl reads its central directory and the one entry
// through ranged reads of the stored object, so neither the archive nor the cloud is held in memory.
import { PassThrough, type Readable } from 'node:stream';
import yauzl from 'yauzl';
import type { BlobKey, BlobStore } from '@fieldops/kit/blobs';
import { PermanentEngineFailure } from './engine.port.ts';

/**
 * Where ODM writes the georeferenced cloud, in the order taken: LAZ is what ODM 2.x writes by
 * default and the engine reads it as it is (chunk by chunk); a node run with `pc-las` or an older
 * ODM may give LAS, and a PLY is taken last.
 */
export const ODM_POINT_CLOUDS = [
  'odm_georeferencing/odm_georeferenced_model.laz',
  'odm_georeferencing/odm_georeferenced_model.las',
  'odm_georeferencing/odm_georeferenced_model.ply',
] as const;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  laz: 'application/vnd.laszip',
  las: 'application/vnd.las',
};

class StoredZipReader extends yauzl.RandomAccessReader {
  private readonly blobs: BlobStore;
  private readonly key: BlobKey;
  constructor(blobs: BlobStore, key: BlobKey) {
    super();
    this.blobs = blobs;
    this.key = key;
  }

  override _readStreamForRange(start: number, end: number): Readable {
    const out = new PassThrough();
    this.blobs
      .get(this.key, { range: { start, end: end - 1 } })
      .then((read) => {
        if (!read) throw new Error(`${this.key} is no longer stored.`);
        read.body.on('error', (error) => out.destroy(error));
        read.body.pipe(out);
      })
      .catch((error: unknown) => out.destroy(error as Error));
    return out;
  }
}

function openZip(blobs: BlobStore, key: BlobKey, size: number): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromRandomAccessReader(
      new StoredZipReader(blobs, key),
      size,
      { lazyEntries: true, autoClose: false },
      (error, zip) => (error || !zip ? reject(error ?? new Error('unreadable zip')) : resolve(zip)),
    );
  });
}

/** Walks the central directory for the first name `wanted` accepts. */
function findEntry(zip: yauzl.ZipFile, names: readonly string[]): Promise<Map<string, yauzl.Entry>> {
  const found = new Map<string, yauzl.Entry>();
  return new Promise((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      if (names.includes(entry.fileName)) found.set(entry.fileName, entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(found));
    zip.on('error', reject);
    zip.readEntry();
  });
}

function entryStream(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => (error || !stream ? reject(error) : resolve(stream)));
  });
}

export interface UnpackedCloud {
  key: BlobKey;
  name: string;
  size: number;
}

/**
 * Copies the georeferenced cloud out of the stored all.zip to `target(name)`. Fails permanently,
 * naming what the results hold instead, when there is no cloud the engine can read.
 */
export async function unpackPointCloud(
  blobs: BlobStore,
  zipKey: BlobKey,
  zipSize: number,
  target: (name: string) => BlobKey,
): Promise<UnpackedCloud> {
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(blobs, zipKey, zipSize);
  } catch (error) {
    throw new PermanentEngineFailure(`NodeODM's all.zip cannot be read: ${(error as Error).message}.`, {
      cause: error,
    });
  }
  try {
    const found = await findEntry(zip, ODM_POINT_CLOUDS);
    const path = ODM_POINT_CLOUDS.find((name) => found.has(name));
    if (!path) {
      throw new PermanentEngineFailure(
        `NodeODM's results hold no georeferenced point cloud (${ODM_POINT_CLOUDS.join(' or ')}); the reconstruction produced no points to measure.`,
      );
    }
    const name = path.split('/').at(-1) as string;
    const key = target(name);
    const body = await entryStream(zip, found.get(path) as yauzl.Entry);
    const head = await blobs.put(key, body, {
      contentType: CONTENT_TYPES[name.split('.').at(-1) as string] ?? 'application/octet-stream',
    });
    return { key, name, size: head.size };
  } finally {
    zip.close();
  }
}
