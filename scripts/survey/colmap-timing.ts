// Times the COLMAP engine on the synthetic survey (docs/performance.md, "Photogrammetry"): the real
// engine over an embedded blob store, for 12 and 48 photos, with the time spent in each phase it
// reports and the peak memory of the COLMAP processes it starts (VmHWM, sampled every 100 ms) and
// of this process. Photos 640 × 480. Run once per machine:
// `npx tsx scripts/survey/colmap-timing.ts [threads] [draft|standard|high]`.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { blobKey, openEmbeddedBlobStore } from '@fieldops/kit/blobs';
import { colmapEngine, type EngineJob } from '@fieldops/capture/worker';
import { generateSurvey } from '@fieldops/survey-fixtures/survey';

const threads = Number(process.argv[2] ?? 2);
const SETS = [
  { label: '12 photos', grid: [2, 4] as [number, number], spacingM: 10 },
  { label: '48 photos', grid: [4, 11] as [number, number], spacingM: 8 },
];

/** Peak resident memory (kB) of this process's colmap children seen so far. */
function childPeakKb(): number {
  let peak = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      if (!/^Name:\s+colmap/m.test(status) || !new RegExp(`^PPid:\\s+${process.pid}$`, 'm').test(status))
        continue;
      peak = Math.max(peak, Number(/^VmHWM:\s+(\d+)/m.exec(status)?.[1] ?? 0));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return peak;
}

async function timeSet(set: (typeof SETS)[number], quality: string) {
  const dir = mkdtempSync(join(tmpdir(), 'fieldops-colmap-timing-'));
  const blobs = await openEmbeddedBlobStore({ dir });
  const survey = generateSurvey({ grid: set.grid, spacingM: set.spacingM, width: 640, height: 480 });
  const frames = [];
  for (const [n, photo] of survey.photos.entries()) {
    const key = blobKey('ten_timing', 'captures', 'cap_timing', `${n}.jpg`);
    await blobs.put(key, photo.bytes, { contentType: 'image/jpeg' });
    frames.push({ key, name: photo.name, contentType: 'image/jpeg', size: photo.bytes.length });
  }
  const job: EngineJob = {
    tenantId: 'ten_timing',
    projectId: 'prj_timing',
    captureId: 'cap_timing',
    runId: `run_timing_${frames.length}`,
    attempt: 1,
    mode: 'volumes',
    quality,
    frames,
    control: false,
    hasLidar: false,
    outputPath: (name) => blobKey('ten_timing', 'runs', 'run_timing', name),
  };
  const phases: { phase: string; at: number }[] = [];
  let peakKb = 0;
  let nodePeak = 0;
  const sampler = setInterval(() => {
    peakKb = Math.max(peakKb, childPeakKb());
    nodePeak = Math.max(nodePeak, process.memoryUsage().rss);
  }, 100);
  const started = Date.now();
  const result = await colmapEngine({ bin: process.env['FIELDOPS_COLMAP_BIN'] || 'colmap', threads }).run(
    job,
    {
      blobs,
      signal: new AbortController().signal,
      progress: async (_fraction, phase) => {
        const name = phase.replace(/ \(.*\)$/, '');
        if (phases.at(-1)?.phase !== name) phases.push({ phase: name, at: Date.now() });
      },
    },
  );
  const ended = Date.now();
  clearInterval(sampler);
  await blobs.close();
  rmSync(dir, { recursive: true, force: true });
  const fill = result.quantities?.rollup?.fill ?? NaN;
  console.log(
    `\n${set.label} (${quality}, ${threads} threads): ${((ended - started) / 1000).toFixed(1)} s in all`,
  );
  for (const [n, p] of phases.entries()) {
    const next = phases[n + 1]?.at ?? ended;
    console.log(`| ${p.phase} | ${((next - p.at) / 1000).toFixed(1)} s |`);
  }
  console.log(
    `points ${result.scene.pointCount}; fill ${fill.toFixed(1)} m³ (truth ${survey.trueVolumeM3.toFixed(1)})`,
  );
  console.log(
    `peak memory: colmap ${(peakKb / 1024).toFixed(0)} MB, node ${(nodePeak / 2 ** 20).toFixed(0)} MB`,
  );
}

console.log(
  `${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GB, ${new Date().toISOString()}`,
);
for (const set of SETS) await timeSet(set, process.argv[3] ?? 'standard');
