// The COLMAP engine's parts that need no full reconstruction and do need the survey fixtures
// (which depend on capture, so these stay outside capture's own tests): the geodetic frame a model
// is aligned in, the photo checks that name a bad file before COLMAP starts (and read the EXIF
// date and each camera's focal length), that aborting a run kills the COLMAP process it started,
// that a run logs its phases with their durations and a failed command's last lines, and that its
// workspace is made under the scratch dir it is given. The text model and the matcher choice are tested in
// services/capture/test/colmap-parts.test.ts.
import { chmod, mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { colmapAnswers } from '../src/settings.ts';
import { runColmap } from '../src/worker/colmap/colmap-cli.ts';
import { enuFrame } from '@fieldops/measure-engine';
import { colmapEngine, type EngineJob } from '@fieldops/capture/worker';
import { blobKey, openEmbeddedBlobStore } from '@fieldops/kit/blobs';
import { pino } from 'pino';
import { inspectPhoto, UnreadablePhoto } from '../src/worker/colmap/photos.ts';
import { generateSurvey, SURVEY_ORIGIN } from '@fieldops/survey-fixtures/survey';

let dir: string;
const survey = generateSurvey({ width: 160, height: 120, grid: [1, 2] });
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fieldops-colmap-parts-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the east-north-up frame', () => {
  it('round-trips a position 1 km away to under a millimetre, and puts north on +y', () => {
    const frame = enuFrame(SURVEY_ORIGIN);
    const there = frame.toGeodetic([600, 800, 35]);
    const back = frame.toEnu(there);
    expect(Math.hypot(back[0] - 600, back[1] - 800, back[2] - 35)).toBeLessThan(1e-3);
    expect(frame.toEnu({ ...SURVEY_ORIGIN, lat: SURVEY_ORIGIN.lat + 0.001 })[1]).toBeGreaterThan(111);
  });
});

describe('photo checks', () => {
  it('reads size, focal length in pixels and GPS position from a photo', async () => {
    const photo = survey.photos[0]!;
    await writeFile(join(dir, 'a.jpg'), photo.bytes);
    const seen = await inspectPhoto(join(dir, 'a.jpg'), 'a.jpg', photo.name);
    expect(seen).toMatchObject({ width: 160, height: 120 });
    expect(seen.focalPx).toBeCloseTo(140, 1);
    const east = enuFrame(SURVEY_ORIGIN).toEnu(seen.position!);
    expect(Math.hypot(east[0] + 6, east[1], east[2] - 35)).toBeLessThan(0.2);
    // DateTimeOriginal with OffsetTimeOriginal, as a drone writes them.
    expect(seen.takenAt).toEqual({ iso: '2015-10-16T10:23:45+02:00', hasOffset: true });
  });

  it('reads each camera of a two-camera survey with its own focal length', async () => {
    const two = generateSurvey({ width: 160, height: 120, grid: [1, 2], cameras: 2 });
    const focal: number[] = [];
    for (const [n, photo] of two.photos.slice(0, 2).entries()) {
      await writeFile(join(dir, `two-${n}.jpg`), photo.bytes);
      focal.push((await inspectPhoto(join(dir, `two-${n}.jpg`), `two-${n}.jpg`, photo.name)).focalPx!);
    }
    expect(focal[0]).toBeCloseTo(140, 1);
    expect(focal[1]).toBeCloseTo(112, 1);
  });

  it('names a file that is not an image, and a JPEG cut short', async () => {
    await writeFile(join(dir, 'b.jpg'), 'plain text');
    await writeFile(join(dir, 'c.jpg'), survey.photos[1]!.bytes.subarray(0, 2000));
    for (const file of ['b.jpg', 'c.jpg']) {
      await expect(inspectPhoto(join(dir, file), file, `DJI_${file}`)).rejects.toThrow(
        new UnreadablePhoto(`DJI_${file} is not a readable JPEG or PNG image`),
      );
    }
  });
});

(colmapAnswers('colmap') ? describe : describe.skip)('a COLMAP step', () => {
  it('is killed when its run is aborted, and the abort reason is what the run sees', async () => {
    const images = join(dir, 'images');
    await rm(images, { recursive: true, force: true });
    await mkdir(images);
    const photos = generateSurvey({ width: 320, height: 240, grid: [1, 2] }).photos;
    for (const photo of photos) {
      await writeFile(join(images, photo.name), photo.bytes);
    }
    const controller = new AbortController();
    const reason = new Error('The run was taken over by another worker.');
    const lines: string[] = [];
    const step = runColmap({
      bin: 'colmap',
      command: 'feature_extractor',
      options: { database_path: join(dir, 'db.db'), image_path: images, 'SiftExtraction.use_gpu': 0 },
      cwd: dir,
      signal: controller.signal,
      onLine: (line) => {
        lines.push(line);
        if (/Processed file \[1\//.test(line)) controller.abort(reason);
      },
    });
    await expect(step).rejects.toBe(reason);
    // Killed after the first photo: it never reached the last one.
    const last = `Processed file [${photos.length}/${photos.length}]`;
    expect(lines.some((line) => line.includes(last))).toBe(false);
  }, 120_000);
});

describe("the COLMAP engine's log", () => {
  it('logs each phase with its duration and the run id at info, and a failed command’s last lines at warn', async () => {
    // A stand-in binary that fails as COLMAP does, with its own last lines: the engine's logging is
    // what is under test, not COLMAP.
    const bin = join(dir, 'failing-colmap.sh');
    await writeFile(
      bin,
      '#!/bin/sh\necho "Reading images..."\necho "E1127 feature_extractor: out of memory" >&2\nexit 1\n',
    );
    await chmod(bin, 0o755);
    const blobs = await openEmbeddedBlobStore({ dir: join(dir, 'blobs') });
    const frames = [];
    for (const [n, photo] of survey.photos.entries()) {
      const key = blobKey('ten_log', 'captures', 'cap_log', `${n}.jpg`);
      await blobs.put(key, photo.bytes, { contentType: 'image/jpeg' });
      frames.push({ key, name: photo.name, contentType: 'image/jpeg', size: photo.bytes.length });
    }
    const job: EngineJob = {
      tenantId: 'ten_log',
      projectId: 'prj_log',
      captureId: 'cap_log',
      runId: 'run_log',
      attempt: 1,
      mode: 'volumes',
      quality: 'draft',
      frames,
      control: false,
      hasLidar: false,
      outputPath: (name) => blobKey('ten_log', 'runs', 'run_log', name),
    };
    const lines: { level: number; msg: string; [key: string]: unknown }[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()));
        done();
      },
    });
    const run = colmapEngine({ bin, threads: 1 }).run(job, {
      blobs,
      signal: new AbortController().signal,
      progress: async () => undefined,
      logger: pino({ level: 'info' }, sink),
    });
    await expect(run).rejects.toThrow(/exited with 1/);
    await blobs.close();
    const checking = lines.find((l) => l.msg === 'colmap phase done' && l['phase'] === 'checking');
    expect(checking).toMatchObject({ level: 30, runId: 'run_log', durationMs: expect.any(Number) });
    const failed = lines.find((l) => l.msg === 'colmap command failed');
    expect(failed).toMatchObject({
      level: 40,
      runId: 'run_log',
      phase: 'features',
      command: 'feature_extractor',
      lines: ['Reading images...', 'E1127 feature_extractor: out of memory'],
    });
    expect(lines.find((l) => l.msg === 'colmap run failed')).toMatchObject({ level: 40, phase: 'features' });
  });
});

describe("the COLMAP engine's workspace", () => {
  it('is made under the scratch dir it is given (FIELDOPS_SCRATCH_DIR), photos and all, and removed after the run', async () => {
    const scratch = join(dir, 'scratch');
    const seen = join(dir, 'seen-by-colmap.txt');
    // A stand-in binary that records where COLMAP is run and what it finds there, then fails.
    const bin = join(dir, 'recording-colmap.sh');
    await writeFile(bin, `#!/bin/sh\npwd > "${seen}"\nls images >> "${seen}"\nexit 1\n`);
    await chmod(bin, 0o755);
    const blobs = await openEmbeddedBlobStore({ dir: join(dir, 'scratch-blobs') });
    const frames = [];
    for (const [n, photo] of survey.photos.entries()) {
      const key = blobKey('ten_scratch', 'captures', 'cap_scratch', `${n}.jpg`);
      await blobs.put(key, photo.bytes, { contentType: 'image/jpeg' });
      frames.push({ key, name: photo.name, contentType: 'image/jpeg', size: photo.bytes.length });
    }
    const job: EngineJob = {
      tenantId: 'ten_scratch',
      projectId: 'prj_scratch',
      captureId: 'cap_scratch',
      runId: 'run_scratch',
      attempt: 1,
      mode: 'volumes',
      quality: 'draft',
      frames,
      control: false,
      hasLidar: false,
      outputPath: (name) => blobKey('ten_scratch', 'runs', 'run_scratch', name),
    };
    try {
      const run = colmapEngine({ bin, threads: 1 }, { scratchDir: scratch }).run(job, {
        blobs,
        signal: new AbortController().signal,
        progress: async () => undefined,
      });
      await expect(run).rejects.toThrow(/exited with 1/);
    } finally {
      await blobs.close();
    }
    const [workspace, ...photos] = (await readFile(seen, 'utf8')).trim().split('\n');
    expect(dirname(workspace!)).toBe(await realpath(scratch));
    expect(basename(workspace!)).toMatch(/^fieldops-colmap-run_scratch-/);
    expect(photos).toHaveLength(survey.photos.length);
    expect(await readdir(scratch)).toEqual([]);
  });
});
