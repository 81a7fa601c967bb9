// The built-in engine for captures that carry 3D points (PLY ascii/binary, LAS 1.2–1.4): reads
// every point-cloud file with the measurements engine's readers, and records the scene (points,
// bounds in metres) with the files as its artifacts. Quantities per region are computed by the
// measurements service from the same files (the @fieldops/measure-engine package).
import { emptyBounds, extendBounds, openPointCloud, type GrowingBounds } from '@fieldops/measure-engine';
import { isPointCloud } from '../session-model/manifest.ts';
import { blobSource } from './blob-source.ts';
import {
  PermanentEngineFailure,
  type EngineIo,
  type EngineJob,
  type ReconstructionEngine,
} from './engine.port.ts';
import { captureAccuracy, measureVolumes } from './measure-volumes.ts';

async function readCloud(job: EngineJob, io: EngineIo, index: number, bounds: GrowingBounds) {
  const frame = job.frames.filter(isPointCloud)[index]!;
  let reader;
  try {
    reader = await openPointCloud(blobSource(io.blobs, frame));
  } catch (error) {
    throw new PermanentEngineFailure(`Cannot read ${frame.name || frame.key}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const h = reader.header.horizontalUnit.metres;
  const v = reader.header.verticalUnit.metres;
  let count = 0;
  for await (const chunk of reader.points()) {
    if (io.signal.aborted) throw io.signal.reason;
    for (let k = 0; k < chunk.count; k++) {
      extendBounds(bounds, chunk.x[k]! * h, chunk.y[k]! * h, chunk.z[k]! * v);
    }
    count += chunk.count;
  }
  return { count, format: reader.header.format };
}

export const builtinEngine: ReconstructionEngine = {
  name: 'builtin',
  async run(job, io) {
    const clouds = job.frames.filter(isPointCloud);
    if (clouds.length === 0)
      throw new PermanentEngineFailure('The capture holds no point-cloud file (PLY or LAS).');
    const bounds = emptyBounds();
    let pointCount = 0;
    const formats = new Set<string>();
    for (const [index] of clouds.entries()) {
      await io.progress(index / clouds.length, `reading ${clouds[index]!.name || `file ${index + 1}`}`);
      const read = await readCloud(job, io, index, bounds);
      pointCount += read.count;
      formats.add(read.format);
    }
    if (pointCount === 0) throw new PermanentEngineFailure('The point-cloud files hold no points.');
    const quantities =
      job.mode === 'volumes'
        ? await measureVolumes(
            clouds.map((cloud) => blobSource(io.blobs, cloud)),
            captureAccuracy(job),
            io,
          )
        : undefined;
    await io.progress(1, 'scene assembled');
    return {
      scene: {
        kind: job.mode === 'surface' ? 'surface' : 'point-cloud',
        pointCount,
        bounds,
        formats: [...formats],
      },
      artifacts: clouds.map((frame) => ({
        key: frame.key,
        name: frame.name,
        contentType: frame.contentType,
        size: frame.size,
      })),
      ...(quantities ? { quantities } : {}),
    };
  },
};
