// Photos → quantities at real scale (docs/performance.md, "Photogrammetry at real scale"): the real
// COLMAP engine over an embedded blob store on generated surveys of 2400 × 1800 JPEGs with consumer
// GPS noise, at 50, 100 and 200 photos (nadir grids at 12 m spacing plus 4 obliques). Photos are
// rendered and stored first (not timed); the clock runs from the engine's start to its quantities.
// COLMAP's share is measured, not inferred: the engine is pointed at a wrapper script that appends
// each COLMAP command's wall time to a file. Run once per machine (it takes long on 2 cores):
// `npm run bench:photogrammetry -- [counts, e.g. 50,100,200] [quality] [threads]`.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { blobKey, openEmbeddedBlobStore } from '@fieldops/kit/blobs';
import { colmapEngine, type EngineJob } from '@fieldops/capture/worker';
import { generateSurvey } from '@fieldops/survey-fixtures/survey';

const counts = (process.argv[2] ?? '50,100,200').split(',').map(Number);
const quality = process.argv[3] ?? 'standard';
const threads = Number(process.argv[4] ?? 2);
const WIDTH = 2400;
const HEIGHT = 1800;

/** Nadir grids (rows × columns) whose photo count, with the 4 obliques, is near the asked count. */
const GRIDS: Record<number, [number, number]> = { 50: [6, 8], 100: [8, 12], 200: [14, 14] };

/** A shell wrapper around colmap that logs `<command> <seconds>` per call to `log`. */
function timedColmap(dir: string, log: string): string {
  const bin = process.env['FIELDOPS_COLMAP_BIN'] || 'colmap';
  const path = join(dir, 'colmap-timed.sh');
  writeFileSync(
    path,
    `#!/bin/sh\nstart=$(date +%s.%N)\n${bin} "$@"\ncode=$?\necho "$1 $(echo "$(date +%s.%N) - $start" | bc)" >> ${log}\nexit $code\n`,
  );
  chmodSync(path, 0o755);
  return path;
}

function colmapSeconds(log: string): Map<string, number> {
  const byCommand = new Map<string, number>();
  for (const line of readFileSync(log, 'utf8').split('\n').filter(Boolean)) {
    const [command, seconds] = line.split(' ');
    byCommand.set(command!, (byCommand.get(command!) ?? 0) + Number(seconds));
  }
  return byCommand;
}

async function timeSurvey(asked: number) {
  const grid = GRIDS[asked] ?? [Math.round(Math.sqrt(asked)), Math.round(Math.sqrt(asked))];
  const dir = mkdtempSync(join(tmpdir(), 'fieldops-colmap-scale-'));
  const blobs = await openEmbeddedBlobStore({ dir });
  const renderStart = Date.now();
  const survey = generateSurvey({ grid, spacingM: 12, width: WIDTH, height: HEIGHT, grade: 'noisy' });
  const renderS = (Date.now() - renderStart) / 1000;
  const frames = [];
  for (const [n, photo] of survey.photos.entries()) {
    const key = blobKey('ten_scale', 'captures', 'cap_scale', `${n}.jpg`);
    await blobs.put(key, photo.bytes, { contentType: 'image/jpeg' });
    frames.push({ key, name: photo.name, contentType: 'image/jpeg', size: photo.bytes.length });
  }
  const job: EngineJob = {
    tenantId: 'ten_scale',
    projectId: 'prj_scale',
    captureId: 'cap_scale',
    runId: `run_scale_${frames.length}`,
    attempt: 1,
    mode: 'volumes',
    quality,
    frames,
    control: false,
    hasLidar: false,
    outputPath: (name) => blobKey('ten_scale', 'runs', 'run_scale', name),
  };
  const log = join(dir, 'colmap-times.txt');
  writeFileSync(log, '');
  const phases: { phase: string; at: number }[] = [];
  const load = loadavg()[0]!;
  // The machine's load during the timed part, so the figure says how shared the machine was.
  const loads: number[] = [];
  const sampler = setInterval(() => loads.push(loadavg()[0]!), 10_000);
  const started = Date.now();
  const result = await colmapEngine({ bin: timedColmap(dir, log), threads }).run(job, {
    blobs,
    signal: new AbortController().signal,
    progress: async (_fraction, phase) => {
      const name = phase.replace(/ \(.*\)$/, '');
      if (phases.at(-1)?.phase !== name) phases.push({ phase: name, at: Date.now() });
    },
  });
  const totalS = (Date.now() - started) / 1000;
  clearInterval(sampler);
  const colmap = colmapSeconds(log);
  const colmapS = [...colmap.values()].reduce((a, b) => a + b, 0);
  await blobs.close();
  rmSync(dir, { recursive: true, force: true });
  const q = result.quantities;
  console.log(
    `\n${frames.length} photos ${WIDTH}×${HEIGHT} (${quality}, ${threads} threads; rendered in ${renderS.toFixed(0)} s, not timed; load average at start ${load.toFixed(1)})`,
  );
  const sorted = [...loads].sort((a, b) => a - b);
  console.log(
    `load average (1 min) during the run: min ${sorted[0]?.toFixed(1)}, median ${sorted[sorted.length >> 1]?.toFixed(1)}, max ${sorted.at(-1)?.toFixed(1)}`,
  );
  console.log(
    `photos → quantities ${totalS.toFixed(1)} s; COLMAP ${colmapS.toFixed(1)} s (${((100 * colmapS) / totalS).toFixed(1)} %)`,
  );
  for (const [n, p] of phases.entries()) {
    const next = phases[n + 1]?.at ?? started + totalS * 1000;
    console.log(`| ${p.phase} | ${((next - p.at) / 1000).toFixed(1)} s |`);
  }
  console.log(`COLMAP by command: ${[...colmap].map(([c, s]) => `${c} ${s.toFixed(1)} s`).join(', ')}`);
  console.log(
    `points ${result.scene.pointCount}; fill ${q?.rollup?.fill?.toFixed(1)} m³ (truth ${survey.trueVolumeM3.toFixed(1)}); quality ${JSON.stringify(result.reconstruction ?? null)}`,
  );
}

console.log(
  `${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GB, ${new Date().toISOString()}`,
);
for (const count of counts) await timeSurvey(count);
