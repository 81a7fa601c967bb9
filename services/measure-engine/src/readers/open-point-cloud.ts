// Opens a point cloud by what its bytes say it is, not by its name: "ply\n" starts a PLY file,
// "LASF" a LAS or LAZ file.
import { readWith } from '../io/byte-queue.ts';
import { EngineError } from '../errors.ts';
import type { ByteSource, PointReader } from '../types.ts';
import { openLas } from './las-reader.ts';
import { openPly } from './ply-reader.ts';

export async function openPointCloud(source: ByteSource): Promise<PointReader> {
  const magic = new TextDecoder('latin1').decode(await readWith(source.open(), (queue) => queue.read(4)));
  if (magic === 'LASF') return openLas(source);
  if (magic === 'ply\n' || magic === 'ply\r') return openPly(source);
  if (magic.length < 4) {
    throw new EngineError(
      'truncated',
      `${source.name} is empty or shorter than any point cloud header.`,
      source.name,
    );
  }
  throw new EngineError(
    'unsupported_format',
    `${source.name} is neither PLY nor LAS (it starts with bytes other than "ply" or "LASF").`,
    source.name,
  );
}
