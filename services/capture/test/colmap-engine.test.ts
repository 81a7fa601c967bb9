// The COLMAP engine's parts that need no full reconstruction and do need the survey fixtures: the
// geodetic frame a model is aligned in, the photo checks that name a bad file before COLMAP
// starts, and that aborting a run kills the COLMAP process it started. These parts are capture's
// own (not in its package face), so they are tested here; the survey fixtures depend on capture's
// ./worker face, and only this test depends back on them. The text model and the matcher choice
// are tested in colmap-parts.test.ts.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { colmapAnswers } from '../src/settings.js';
import { runColmap } from '../src/worker/colmap/colmap-cli.js';
import { enuFrame } from '../src/worker/colmap/geodesy.js';
import { inspectPhoto, UnreadablePhoto } from '../src/worker/colmap/photos.js';
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
