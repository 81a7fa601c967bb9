// The built-in photogrammetry engine: COLMAP's sparse structure from motion on the platform's own
// CPUs. Photos are checked (readable, positioned), features extracted and matched between nearby
// photos only (spatial matching on the GPS positions, so cost grows with the photo count, not its
// square), mapped, aligned to the photos' positions in a local east-north-up frame in metres, and
// the well-supported points (≥ 3 images, within the model's own error: sparse-model.ts) stored as
// the scene's PLY and measured by the measurement engine with the alignment residual and any
// measured dome behind the bands. The run reports its quality as typed figures (quality.ts) and
// logs each phase with its duration, and a failed COLMAP command's last lines at warn. Every
// failure a caller can fix fails the run at once naming the phase; anything else is retried by
// the lease rules.
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  emptyBounds,
  extendBounds,
  measureSite,
  type RegionInput,
  quantitiesMessage,
} from '@fieldops/measure-engine';
import type { measurements } from '@fieldops/proto';
import type { ColmapSettings } from '../../settings.ts';
import { isImage } from '../../session-model/manifest.ts';
import { blobSource } from '../blob-source.ts';
import {
  PermanentEngineFailure,
  type EngineIo,
  type EngineJob,
  type EngineResult,
  type ReconstructionEngine,
  type SceneArtifact,
} from '../engine.port.ts';
import { ColmapCommandFailed, runColmap } from './colmap-cli.ts';
import {
  alignmentFit,
  domeCurvature,
  MIN_POSITIONED_PHOTOS,
  MIN_POSITION_SPREAD_M,
  referenceOf,
  type AlignmentFit,
  type Reference,
} from './georeference.ts';
import { downloadPhoto, imagesDir, inspectPhoto, photoFile, UnreadablePhoto, type Photo } from './photos.ts';
import { pointCloudPly } from './point-ply.ts';
import { reconstructionQuality } from './quality.ts';
import { readCameraCentres, readPoints, type SparsePoints } from './sparse-model.ts';
import { extractOptions, mapperOptions, matcherFor, PHASES, type Phase } from './steps.ts';

/** A share of the photos below which the model is too partial to measure. */
const MIN_REGISTERED_SHARE = 0.5;
/** Fewer kept points than this cannot make a surface. */
const MIN_POINTS = 200;
/** Aligned to positions better than this, the positions are survey grade (RTK/PPK). */
const SURVEY_GRADE_RMSE_M = 0.1;

const fail = (phase: Phase, message: string, cause?: unknown): PermanentEngineFailure =>
  new PermanentEngineFailure(`${PHASES[phase].label}: ${message}`, cause ? { cause } : undefined);

interface RunContext {
  job: EngineJob;
  io: EngineIo;
  settings: ColmapSettings;
  dir: string;
  /** The phase under way and when it started (epoch ms), for the phase log lines. */
  current?: { phase: Phase; since: number };
}

/** Logs the phase under way as done, with its duration, at info. */
function endPhase(ctx: RunContext): void {
  if (!ctx.current) return;
  const durationMs = Date.now() - ctx.current.since;
  ctx.io.logger?.info({ runId: ctx.job.runId, phase: ctx.current.phase, durationMs }, 'colmap phase done');
  ctx.current = undefined;
}

async function report(ctx: RunContext, phase: Phase, within = 0, detail = ''): Promise<void> {
  if (ctx.current?.phase !== phase) {
    endPhase(ctx);
    ctx.current = { phase, since: Date.now() };
  }
  const { from, to, label } = PHASES[phase];
  await ctx.io.progress(from + (to - from) * Math.min(1, within), detail ? `${label} (${detail})` : label);
}

/** `[i/n]` (extraction, matching) or `Registering image #id (k)` (mapping: k of the photos). */
function stepOf(line: string, photos: number): [number, number] | undefined {
  const step = /\[(\d+)\/(\d+)\]/.exec(line);
  if (step) return [Number(step[1]), Number(step[2])];
  const registered = /^Registering image #\d+ \((\d+)\)/.exec(line);
  return registered && photos > 0 ? [Number(registered[1]), photos] : undefined;
}

/** Runs one COLMAP command, reporting its progress lines; a crash or exit is retried. */
async function colmap(
  ctx: RunContext,
  phase: Phase,
  command: string,
  options: Record<string, string | number>,
  photos = 0,
) {
  let last = 0;
  const call = runColmap({
    bin: ctx.settings.bin,
    command,
    options,
    cwd: ctx.dir,
    signal: ctx.io.signal,
    onLine: (line) => {
      const step = stepOf(line, photos);
      if (!step || Date.now() - last < 500) return;
      last = Date.now();
      void report(ctx, phase, step[0] / step[1], `${step[0]}/${step[1]}`).catch(() => undefined);
    },
  });
  return call.catch((error: unknown) => {
    if (error instanceof ColmapCommandFailed) {
      ctx.io.logger?.warn(
        { runId: ctx.job.runId, phase, command, exitCode: error.exitCode, lines: error.tail },
        'colmap command failed',
      );
    }
    throw error;
  });
}

async function fetchPhotos(ctx: RunContext): Promise<Photo[]> {
  const frames = ctx.job.frames.filter(isImage);
  if (frames.length === 0) throw fail('checking', 'the capture holds no images.');
  if (frames.length === 1) {
    throw fail(
      'checking',
      'a single photo cannot be reconstructed; upload at least 3 overlapping photos of the site.',
    );
  }
  await mkdir(imagesDir(ctx.dir), { recursive: true });
  const photos: Photo[] = [];
  for (const [index, frame] of frames.entries()) {
    ctx.io.signal.throwIfAborted();
    const file = photoFile(index, frame);
    const path = join(imagesDir(ctx.dir), file);
    try {
      await downloadPhoto(ctx.io.blobs, frame, path);
      photos.push(await inspectPhoto(path, file, frame.name || `file ${index + 1}`));
    } catch (error) {
      if (error instanceof UnreadablePhoto)
        throw fail('checking', `${error.message}; remove it or upload it again.`);
      throw error;
    }
    await report(ctx, 'checking', (index + 1) / frames.length, `${index + 1}/${frames.length}`);
  }
  return photos;
}

function georeferenceable(photos: readonly Photo[]): Reference {
  const positioned = photos.filter((p) => p.position).length;
  if (positioned < MIN_POSITIONED_PHOTOS) {
    throw fail(
      'checking',
      `cannot georeference: ${positioned} of ${photos.length} photos carry a GPS position (EXIF GPSLatitude, GPSLongitude and GPSAltitude) and at least ${MIN_POSITIONED_PHOTOS} are needed; fly with GPS tagging on.`,
    );
  }
  const reference = referenceOf(photos);
  if (reference.spreadM < MIN_POSITION_SPREAD_M) {
    throw fail(
      'checking',
      `cannot georeference: the photos' positions lie within ${reference.spreadM.toFixed(1)} m of each other, too close to fix the model's scale; photograph the site from positions spread across it.`,
    );
  }
  return reference;
}

/** The reconstruction with the most registered photos, with its image count. */
async function largestModel(ctx: RunContext, photos: number): Promise<{ path: string; count: number }> {
  const models = (await readdir(join(ctx.dir, 'sparse')).catch(() => [])).sort();
  let best: { path: string; count: number } | undefined;
  for (const model of models) {
    const text = join(ctx.dir, `model-${model}`);
    await mkdir(text, { recursive: true });
    await colmap(ctx, 'mapping', 'model_converter', {
      input_path: join(ctx.dir, 'sparse', model),
      output_path: text,
      output_type: 'TXT',
    });
    const count = (await readCameraCentres(join(text, 'images.txt'))).size;
    if (!best || count > best.count) best = { path: join(ctx.dir, 'sparse', model), count };
  }
  const needed = Math.max(MIN_POSITIONED_PHOTOS, Math.ceil(photos * MIN_REGISTERED_SHARE));
  if (!best || best.count < needed) {
    throw fail(
      'mapping',
      `too few photos could be registered (${best?.count ?? 0} of ${photos}; at least ${needed} are needed): the photos do not overlap enough. Fly with 70–80 % overlap between neighbouring photos.`,
    );
  }
  return best;
}

async function reconstruct(
  ctx: RunContext,
  photos: Photo[],
  reference: Reference,
): Promise<{ path: string; count: number }> {
  const { dir, job, settings } = ctx;
  await writeFile(join(dir, 'reference.txt'), reference.text);
  await report(ctx, 'features');
  await colmap(
    ctx,
    'features',
    'feature_extractor',
    extractOptions(dir, photos, job.quality, settings.threads),
  );
  await report(ctx, 'matching');
  const matcher = matcherFor(photos, job.quality, settings.threads);
  await colmap(ctx, 'matching', matcher.command, { database_path: join(dir, 'db.db'), ...matcher.options });
  await report(ctx, 'mapping');
  await mkdir(join(dir, 'sparse'), { recursive: true });
  await colmap(
    ctx,
    'mapping',
    'mapper',
    mapperOptions(dir, settings.threads, photos.length),
    photos.length,
  ).catch((error: unknown) => {
    // COLMAP exits 1 when no two photos match at all ("failed to create sparse model").
    if (
      error instanceof ColmapCommandFailed &&
      error.tail.some((l) => /failed to create sparse model/.test(l))
    ) {
      return undefined;
    }
    throw error;
  });
  return largestModel(ctx, photos.length);
}

async function align(ctx: RunContext, model: string, reference: Reference) {
  const aligned = join(ctx.dir, 'aligned');
  const text = join(ctx.dir, 'aligned-txt');
  await mkdir(aligned, { recursive: true });
  await mkdir(text, { recursive: true });
  await report(ctx, 'georeferencing');
  try {
    await colmap(ctx, 'georeferencing', 'model_aligner', {
      input_path: model,
      output_path: aligned,
      ref_images_path: join(ctx.dir, 'reference.txt'),
      ref_is_gps: 0,
      alignment_type: 'custom',
      robust_alignment: 1,
      // Generous: consumer GPS is off by metres; the residual below says how well it fitted.
      robust_alignment_max_error: 10,
    });
  } catch (error) {
    if (error instanceof ColmapCommandFailed) {
      throw fail(
        'georeferencing',
        "cannot georeference: the registered photos' positions do not fit the model (too few, or in a line); photograph the site from positions spread across it.",
        error,
      );
    }
    throw error;
  }
  await colmap(ctx, 'georeferencing', 'model_converter', {
    input_path: aligned,
    output_path: text,
    output_type: 'TXT',
  });
  const centres = await readCameraCentres(join(text, 'images.txt'));
  const fit = alignmentFit(centres, reference);
  if (fit.compared < MIN_POSITIONED_PHOTOS) {
    throw fail(
      'georeferencing',
      `cannot georeference: only ${fit.compared} registered photos carry a position.`,
    );
  }
  const warpCurvaturePerM = domeCurvature(centres, reference);
  return { points: await readPoints(join(text, 'points3D.txt')), fit, warpCurvaturePerM };
}

function boundsOf(points: SparsePoints): NonNullable<EngineResult['scene']['bounds']> {
  const b = emptyBounds();
  for (let i = 0; i < points.count; i++) {
    extendBounds(b, points.xyz[3 * i]!, points.xyz[3 * i + 1]!, points.xyz[3 * i + 2]!);
  }
  return b;
}

const quantile = (sorted: number[], q: number): number => sorted[Math.floor(q * (sorted.length - 1))]!;

/**
 * The whole capture as one region: the rectangle holding the central 90 % of the points along each
 * axis. Oblique photos reach far beyond the surveyed area with few points, and a base fitted to
 * such a thin edge would be guesswork.
 */
function siteRegion(points: SparsePoints): RegionInput {
  const xs = Array.from({ length: points.count }, (_, i) => points.xyz[3 * i]!).sort((a, b) => a - b);
  const ys = Array.from({ length: points.count }, (_, i) => points.xyz[3 * i + 1]!).sort((a, b) => a - b);
  const [x0, x1, y0, y1] = [quantile(xs, 0.05), quantile(xs, 0.95), quantile(ys, 0.05), quantile(ys, 0.95)];
  return {
    id: 'site',
    name: 'Whole capture',
    polygon: [
      [x0, y0],
      [x1, y0],
      [x1, y1],
      [x0, y1],
    ],
  };
}

/** Ground sample distance: the median camera height above the ground over the focal length. */
function gsdOf(photos: readonly Photo[], reference: Reference, bounds: { minZ: number }): number | undefined {
  const focal = photos.find((p) => p.focalPx)?.focalPx;
  const heights = [...reference.enu.values()].map((c) => c[2] - bounds.minZ).sort((a, b) => a - b);
  return focal && heights.length ? quantile(heights, 0.5) / focal : undefined;
}

async function measure(
  ctx: RunContext,
  artifact: SceneArtifact,
  points: SparsePoints,
  fit: AlignmentFit,
  gsdM: number | undefined,
  warpCurvaturePerM: number | undefined,
): Promise<measurements.SiteQuantities> {
  await report(ctx, 'measuring');
  try {
    const measured = await measureSite(blobSource(ctx.io.blobs, artifact), [siteRegion(points)], {
      // Aligned to the photos' positions, never to control points (the capture carries none):
      // the residual classes the positions and, with their span and count, sets the scale error.
      accuracy: {
        sensor: 'photogrammetry',
        control: 'none',
        positionSource: fit.rmseM <= SURVEY_GRADE_RMSE_M ? 'rtk' : 'gps',
        alignmentRmseM: fit.rmseM,
        alignmentSpanM: fit.leverM,
        alignmentPoints: fit.compared,
        ...(gsdM ? { gsdM } : {}),
        ...(warpCurvaturePerM !== undefined ? { warpCurvaturePerM } : {}),
      },
      signal: ctx.io.signal,
    });
    return quantitiesMessage(measured);
  } catch (error) {
    if (ctx.io.signal.aborted) throw error;
    throw fail('measuring', (error as Error).message, error);
  }
}

async function runColmapJob(ctx: RunContext): Promise<EngineResult> {
  const photos = await fetchPhotos(ctx);
  const reference = georeferenceable(photos);
  const model = await reconstruct(ctx, photos, reference);
  const { points, fit, warpCurvaturePerM } = await align(ctx, model.path, reference);
  if (points.count < MIN_POINTS) {
    throw fail(
      'georeferencing',
      `only ${points.count} points are seen in 3 or more photos; the photos share too little texture or overlap.`,
    );
  }
  const { lat, lon, alt } = reference.origin;
  const comment = `fieldops colmap sparse points: metres east, north, up of lat ${lat.toFixed(7)} lon ${lon.toFixed(7)} alt ${alt.toFixed(2)} (WGS 84 ellipsoidal); alignment rmse ${fit.rmseM.toFixed(3)} m`;
  const ply = pointCloudPly(points, comment);
  const key = ctx.job.outputPath('points.ply');
  const head = await ctx.io.blobs.put(key, ply, { contentType: 'application/x-ply' });
  const artifact: SceneArtifact = {
    key,
    name: 'points.ply',
    contentType: 'application/x-ply',
    size: head.size,
  };
  const bounds = boundsOf(points);
  const gsdM = gsdOf(photos, reference, bounds);
  const quantities =
    ctx.job.mode === 'volumes'
      ? await measure(ctx, artifact, points, fit, gsdM, warpCurvaturePerM)
      : undefined;
  endPhase(ctx);
  const reconstruction = reconstructionQuality({
    photos,
    registered: model.count,
    points,
    fit,
    reference,
    gsdM,
    warpCurvaturePerM,
    quantities,
  });
  await ctx.io.progress(1, 'scene assembled');
  return {
    scene: {
      kind: ctx.job.mode === 'surface' ? 'surface' : 'point-cloud',
      pointCount: points.count,
      bounds,
      formats: ['ply'],
    },
    artifacts: [artifact],
    ...(quantities ? { quantities } : {}),
    reconstruction,
  };
}

export interface ColmapEngineOptions {
  /**
   * Where each run's workspace (its photos, COLMAP's database and models) is made: the scratch
   * volume (FIELDOPS_SCRATCH_DIR), sized for the largest surveys; unset, os.tmpdir().
   */
  scratchDir?: string;
}

export function colmapEngine(
  settings: ColmapSettings,
  options: ColmapEngineOptions = {},
): ReconstructionEngine {
  return {
    name: 'colmap',
    async run(job, io) {
      const root = options.scratchDir ?? tmpdir();
      await mkdir(root, { recursive: true });
      const dir = await mkdtemp(join(root, `fieldops-colmap-${job.runId}-`));
      const ctx: RunContext = { job, io, settings, dir };
      const started = Date.now();
      try {
        const result = await runColmapJob(ctx);
        io.logger?.info(
          { runId: job.runId, photos: result.reconstruction?.photosGiven, durationMs: Date.now() - started },
          'colmap run done',
        );
        return result;
      } catch (error) {
        io.logger?.warn(
          { runId: job.runId, phase: ctx.current?.phase, durationMs: Date.now() - started, err: error },
          'colmap run failed',
        );
        throw error;
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
