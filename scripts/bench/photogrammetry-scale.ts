// Photos → quantities with the real COLMAP engine (docs/performance.md, "Photogrammetry"): the
// engine over an embedded blob store on generated surveys with consumer GPS noise and EXIF dates
// (nadir grids plus 4 obliques), at the asked photo counts and size (2400 × 1800 by default: real
// scale is 50, 100 and 200 photos). Photos are rendered and stored first (not timed); the clock
// runs from the engine's start to its quantities. For each survey it prints the time of each phase
// the run reports, COLMAP's share (measured, not inferred: the engine is pointed at a wrapper
// script that appends each COLMAP command's wall time to a file), the load on the machine during
// the run, and the peak resident memory (VmHWM, sampled every 100 ms) of the COLMAP processes and
// of this process. Run once per machine (it takes long on 2 cores):
// `npm run bench:photogrammetry -- [counts, e.g. 50,100,200] [quality] [threads] [size, e.g. 640x480]`.
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { blobKey, openEmbeddedBlobStore } from '@fieldops/kit/blobs';
import { colmapEngine, type EngineJob } from '@fieldops/capture/worker';
import { generateSurvey } from '@fieldops/survey-fixtures/survey';

const counts = (process.argv[2] ?? '50,100,200').split(',').map(Number);
const quality = process.argv[3] ?? 'standard';
const threads = Number(process.argv[4] ?? 2);
const [WIDTH, HEIGHT] = (process.argv[5] ?? '2400x1800').split('x').map(Number) as [number, number];
const SPACING_M = 12;

/** Nadir grids (rows × columns) whose photo count, with the 4 obliques, is near the asked count. */
const GRIDS: Record<number, [number, number]> = {
  12: [2, 4],
  48: [4, 11],
  50: [6, 8],
  100: [8, 12],
  200: [14, 14],
};

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

/** Peak resident memory (kB) of the colmap processes working on this run (their arguments name its directory). */
function colmapPeakKb(runId: string): number {
  let peak = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      if (!/^Name:\s+colmap/m.test(status)) continue;
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(runId)) continue;
      peak = Math.max(peak, Number(/^VmHWM:\s+(\d+)/m.exec(status)?.[1] ?? 0));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return peak;
}

/** Samples the machine's load every 10 s and the memory peaks every 100 ms until stopped. */
function sampleMachine(runId: string) {
  const loads: number[] = [];
  let colmapKb = 0;
  let nodeBytes = 0;
  const memory = setInterval(() => {
    colmapKb = Math.max(colmapKb, colmapPeakKb(runId));
    nodeBytes = Math.max(nodeBytes, process.memoryUsage().rss);
  }, 100);
  const load = setInterval(() => loads.push(loadavg()[0]!), 10_000);
  return () => {
    clearInterval(memory);
    clearInterval(load);
    const sorted = loads.sort((a, b) => a - b);
    return {
      load: `min ${sorted[0]?.toFixed(1)}, median ${sorted[sorted.length >> 1]?.toFixed(1)}, max ${sorted.at(-1)?.toFixed(1)}`,
      memory: `colmap ${(colmapKb / 1024).toFixed(0)} MB, node ${(nodeBytes / 2 ** 20).toFixed(0)} MB`,
    };
  };
}

async function timeSurvey(asked: number) {
  const grid = GRIDS[asked] ?? [Math.round(Math.sqrt(asked)), Math.round(Math.sqrt(asked))];
  const dir = mkdtempSync(join(tmpdir(), 'fieldops-colmap-scale-'));
  const blobs = await openEmbeddedBlobStore({ dir });
  const renderStart = Date.now();
  const survey = generateSurvey({ grid, spacingM: SPACING_M, width: WIDTH, height: HEIGHT, grade: 'noisy' });
  const renderS = (Date.now() - renderStart) / 1000;
  const frames = [];
  for (const [n, photo] of survey.photos.entries()) {
    const key = blobKey('ten_scale', 'captures', 'cap_scale', `${n}.jpg`);
    await blobs.put(key, photo.bytes, { contentType: 'image/jpeg' });
    frames.push({ key, name: photo.name, contentType: 'image/jpeg', size: photo.bytes.length });
  }
  const runId = `run_scale_${frames.length}`;
  const job: EngineJob = {
    tenantId: 'ten_scale',
    projectId: 'prj_scale',
    captureId: 'cap_scale',
    runId,
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
  const loadAtStart = loadavg()[0]!;
  const stopSampling = sampleMachine(runId);
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
  const machine = stopSampling();
  const colmap = colmapSeconds(log);
  const colmapS = [...colmap.values()].reduce((a, b) => a + b, 0);
  await blobs.close();
  rmSync(dir, { recursive: true, force: true });
  const q = result.quantities;
  console.log(
    `\n${frames.length} photos ${WIDTH}×${HEIGHT} (${quality}, ${threads} threads; rendered in ${renderS.toFixed(0)} s, not timed; load average at start ${loadAtStart.toFixed(1)})`,
  );
  console.log(`load average (1 min) during the run: ${machine.load}; peak memory: ${machine.memory}`);
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
