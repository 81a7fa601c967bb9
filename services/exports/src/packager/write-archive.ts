// Phase "packaging": the manifest and the SHA256SUMS file are written beside the staged files,
// then everything goes into one tar.gz. The archive is written under a temporary name and renamed
// only once it is complete, so a file with the final name is always a whole archive.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE } from '@fieldops/kit/process';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import tar from 'tar-stream';
import type { BlobEntry } from './stage-blobs.ts';
import type { TableEntry } from './stage-tables.ts';

export const MANIFEST = 'manifest.json';
export const CHECKSUMS = 'SHA256SUMS';
export const ARCHIVE_FORMAT = 'fieldops-tenant-export/1';

export interface Manifest {
  format: typeof ARCHIVE_FORMAT;
  exportId: string;
  tenantId: string;
  requestedAt: string;
  packagedAt: string;
  tables: TableEntry[];
  blobs: BlobEntry[];
}

export interface ArchiveFile {
  path: string;
  bytes: number;
  sha256: string;
}

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

/** Writes manifest.json and SHA256SUMS (sha256sum -c format) into the staging folder. */
export async function writeManifest(stagingDir: string, manifest: Manifest): Promise<string[]> {
  const manifestText = `${JSON.stringify(manifest, null, 2)}\n`;
  await writeFile(join(stagingDir, MANIFEST), manifestText, { mode: PRIVATE_FILE_MODE });
  const files = [...manifest.tables, ...manifest.blobs].map((e) => ({ path: e.path, sha256: e.sha256 }));
  files.push({ path: MANIFEST, sha256: sha256Hex(manifestText) });
  await writeFile(join(stagingDir, CHECKSUMS), files.map((f) => `${f.sha256}  ${f.path}\n`).join(''), {
    mode: PRIVATE_FILE_MODE,
  });
  return [CHECKSUMS, MANIFEST, ...manifest.tables.map((t) => t.path), ...manifest.blobs.map((b) => b.path)];
}

async function addFile(pack: tar.Pack, stagingDir: string, path: string): Promise<void> {
  const full = join(stagingDir, path);
  const { size } = await stat(full);
  const entry = pack.entry({ name: path, size, mode: 0o644 });
  await pipeline(createReadStream(full), entry);
}

/** Packs the staged files (in the given order) into `finalPath`, via `finalPath.partial`. */
export async function writeArchive(
  stagingDir: string,
  paths: readonly string[],
  finalPath: string,
): Promise<ArchiveFile> {
  const partial = `${finalPath}.partial`;
  const pack = tar.pack();
  const written = pipeline(pack, createGzip(), createWriteStream(partial, { mode: PRIVATE_FILE_MODE }));
  try {
    for (const path of paths) await addFile(pack, stagingDir, path);
    pack.finalize();
  } catch (error) {
    pack.destroy(error as Error);
    await written.catch(() => undefined);
    throw error;
  }
  await written;
  const hash = createHash('sha256');
  await pipeline(createReadStream(partial), async function* (source: AsyncIterable<Buffer>) {
    for await (const chunk of source) hash.update(chunk);
    yield* [];
  });
  await rename(partial, finalPath);
  const { size } = await stat(finalPath);
  return { path: finalPath, bytes: size, sha256: hash.digest('hex') };
}
