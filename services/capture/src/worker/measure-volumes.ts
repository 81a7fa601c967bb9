// Volumes on the points an engine produced or a capture uploaded: the whole capture measured as one
// region (regions drawn later are measured by a new run) with the measurement engine, every file
// read as one cloud (a scan split into tiles is one site). How the capture was made (sensor,
// positions, control) selects the error profile behind the bands. Shared by every engine.
import { measureSite, quantitiesMessage, type CaptureAccuracy } from '@fieldops/measure-engine';
import type { measurements } from '@fieldops/proto';
import type { BlobByteSource } from '@fieldops/kit/blobs';
import { PermanentEngineFailure, type EngineIo, type EngineJob } from './engine.port.ts';

/**
 * What the capture declared about how it was made. Engines that know more (a photogrammetry run's
 * alignment residual, its position source) pass it in `extra`.
 */
export function captureAccuracy(job: EngineJob, extra: Partial<CaptureAccuracy> = {}): CaptureAccuracy {
  return {
    sensor: job.hasLidar ? 'lidar' : 'photogrammetry',
    control: job.control ? 'gcp' : 'none',
    ...(job.control && !job.hasLidar ? { positionSource: 'control' as const } : {}),
    ...extra,
  };
}

export async function measureVolumes(
  sources: readonly BlobByteSource[],
  accuracy: CaptureAccuracy,
  io: EngineIo,
): Promise<measurements.SiteQuantities> {
  await io.progress(0.8, 'measuring volumes');
  try {
    const measured = await measureSite(sources, undefined, { accuracy, signal: io.signal });
    return quantitiesMessage(measured);
  } catch (error) {
    if (io.signal.aborted) throw error;
    const names = sources.map((source) => source.name).join(', ');
    throw new PermanentEngineFailure(`Cannot measure volumes on ${names}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
