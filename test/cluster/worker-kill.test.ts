// A drone survey end to end on the deployed topology, then the same survey with its worker
// SIGKILLed mid-reconstruction. Photos go by presigned PUTs straight to the S3 server, COLMAP runs
// in a capture-worker process (two of them, holding no store: they work through capture's gRPC
// RunLeaseService), and the quantities are read through the gateway. With a short lease
// (FIELDOPS_CAPTURE_LEASE_MS), the surviving worker takes the killed one's run over once the lease
// runs out and finishes it: one scene, one quantity snapshot, and the same quantities as the
// undisturbed run, as far as COLMAP itself repeats: see expectSameMeasurement. Then a rollout: a
// worker stopped (SIGTERM, its grace) mid-run hands the run back, and the other finishes it at the
// same attempt.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { colmapAnswers } from '@fieldops/capture';
import { generateSurvey } from '@fieldops/survey-fixtures/survey';
import { holdProcess, killProcess, restartProcess } from '../../scripts/cluster/cluster.mjs';
import { captureProject, presign, put, type RunBody, type SessionBody } from '../support/capture.ts';
import { clusterOfFile, refusalsLogged } from '../support/cluster.ts';
import { eventually, httpClient, type Body, type Client } from '../support/harness.ts';
import { newTenant, readAll, type AuditEntry } from '../support/keyed-writes.ts';

const present = colmapAnswers(process.env['FIELDOPS_COLMAP_BIN']?.trim() || 'colmap');
if (!present && (Boolean(process.env['CI']) || process.env['FIELDOPS_REQUIRE_COLMAP'] === '1')) {
  throw new Error('colmap is required here (CI) but does not run: install it (apt-get install colmap).');
}
const suite = present ? describe : describe.skip;

/** A survey is about half a minute of COLMAP on two free cores; many minutes on a crowded machine. */
const RUN_TIMEOUT_MS = 900_000;
const SHAPE = { width: 480, height: 360 };

const cluster = clusterOfFile('Survey Co', {
  workers: 2,
  // A drain of one second: a worker stopped mid-survey hands its run back instead of finishing it.
  env: { FIELDOPS_CAPTURE_LEASE_MS: '4000', FIELDOPS_CAPTURE_WORKER_DRAIN_MS: '1000' },
});
const survey = generateSurvey({ grade: 'precise', ...SHAPE });

type Figures = Body & { fill: number; bands: Record<string, { plusMinus: number }> };
type Quantities = Body & { id: string; runId: string; rollup: Figures; regions: Body[] };

/** A tenant of its own per test: its audit trail then holds that test's run only. */
async function tenantApi(name: string): Promise<{ api: Client; token: string }> {
  const { url, adminSecret } = cluster.test.cluster;
  const token = await newTenant({ url }, name, adminSecret);
  return { api: httpClient(`${url}/api/v1`, token), token };
}

/** Presigns, PUTs each photo to S3 and finalizes, as a drone client does; answers the run. */
async function uploadSurvey(api: Client, projectId: string): Promise<string> {
  const { session, uploads } = await presign(api, projectId, {
    frames: survey.photos.map((p) => ({ name: p.name, contentType: 'image/jpeg', size: p.bytes.length })),
    source: 'drone',
    quality: 'draft',
  });
  for (const [n, photo] of survey.photos.entries()) {
    expect(uploads[n]!.url).toContain(cluster.test.cluster.s3.env['S3_ENDPOINT']);
    expect((await put(uploads[n]!, photo.bytes)).status).toBe(200);
  }
  const reply = await api.post(`/projects/${projectId}/capture/${session.id}/finalize`);
  expect(reply.status).toBe(200);
  return (reply.body.session as SessionBody).runId;
}

async function runOf(api: Client, projectId: string, runId: string): Promise<RunBody | undefined> {
  const reply = await api.get(`/projects/${projectId}/runs/${runId}`);
  // A poller retries what the platform says is retryable: while COLMAP holds both cores the
  // gateway's limit checks can time out and answer 503 unavailable, retryable.
  if (reply.status === 503 && reply.body.retryable === true) return undefined;
  // A refusal names itself here instead of surfacing as an undefined run further on.
  if (reply.status !== 200)
    throw new Error(`GET run answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  return reply.body.run as RunBody;
}

const settled = (api: Client, projectId: string, runId: string): Promise<RunBody> =>
  eventually(async () => {
    const run = await runOf(api, projectId, runId);
    return run?.status === 'succeeded' || run?.status === 'failed' ? run : undefined;
  }, RUN_TIMEOUT_MS);

async function quantitiesOf(api: Client, projectId: string): Promise<Quantities> {
  const reply = await api.get(`/projects/${projectId}/quantities`);
  expect(reply.status).toBe(200);
  return reply.body.quantities as Quantities;
}

/** The worker processes (0-based) whose logs say `message` (run claimed, run finished) of the run. */
function workersLogging(runId: string, message: string): number[] {
  const workers = cluster.test.cluster.processes.filter((p) => p.kind === 'capture-worker');
  return workers
    .filter((w) =>
      readFileSync(w.log, 'utf8')
        .split('\n')
        .some((line) => line.includes(`"msg":"${message}"`) && line.includes(`"runId":"${runId}"`)),
    )
    .map((w) => w.index);
}

/** The worker process whose log says it claimed the run, once one has. */
const claimant = (runId: string): number | undefined => workersLogging(runId, 'run claimed')[0];

/** Waits until a worker holds the run and COLMAP has reported progress; answers that worker. */
const midReconstruction = (api: Client, projectId: string, runId: string): Promise<number> =>
  eventually(async () => {
    const run = await runOf(api, projectId, runId);
    if (!run) return undefined;
    expect(run.status).not.toMatch(/succeeded|failed/);
    return run.status === 'running' && run.progress > 0 ? claimant(runId) : undefined;
  }, RUN_TIMEOUT_MS);

let undisturbed: Quantities | undefined;

suite('a drone survey on the cluster, and a worker SIGKILLed mid-reconstruction', () => {
  it(
    'measures the survey end to end: presigned PUTs to S3, COLMAP in a worker process, quantities through the gateway',
    async () => {
      const { api } = await tenantApi('Undisturbed Survey Co');
      const projectId = await captureProject(api, 'Undisturbed Pit');
      const runId = await uploadSurvey(api, projectId);
      const run = await settled(api, projectId, runId);
      expect({ status: run.status, error: run.error, attempts: run.attempts }).toEqual({
        status: 'succeeded',
        error: '',
        attempts: 1,
      });
      expect((await api.get(`/projects/${projectId}/scenes/${run.sceneId}`)).status).toBe(200);
      undisturbed = await quantitiesOf(api, projectId);
      expect(undisturbed.runId).toBe(runId);
      const { fill, bands } = undisturbed.rollup;
      expect(Math.abs(fill - survey.trueVolumeM3)).toBeLessThanOrEqual(bands['fill']!.plusMinus);
    },
    RUN_TIMEOUT_MS + 60_000,
  );

  it(
    'lets the other worker finish a killed worker’s run after its lease: one scene, one snapshot, the same quantities',
    async () => {
      expect(undisturbed).toBeDefined();
      const { api, token } = await tenantApi('Disturbed Survey Co');
      const projectId = await captureProject(api, 'Disturbed Pit');
      const runId = await uploadSurvey(api, projectId);
      const victim = await midReconstruction(api, projectId, runId);
      // The supervisor starts it again; the run is the other worker's (or its own, restarted) after the lease.
      expect(await killProcess({ dataDir: cluster.dataDir }, 'capture-worker', victim)).toBeDefined();

      const run = await settled(api, projectId, runId);
      expect({ status: run.status, error: run.error, attempts: run.attempts }).toEqual({
        status: 'succeeded',
        error: '',
        attempts: 2,
      });
      const scenes = await api.get(`/projects/${projectId}/scenes`);
      expect((scenes.body.items as Body[]).map((scene) => scene['id'])).toEqual([run.sceneId]);
      const measured = await quantitiesOf(api, projectId);
      expect(measured.runId).toBe(runId);
      expectSameMeasurement(measured, undisturbed!);
      await expectRecordedOnce(cluster.url, token, runId);
    },
    2 * RUN_TIMEOUT_MS,
  );

  it(
    'hands a stopped worker’s run to the other at once, at the same attempt, as a rollout or scale-in does',
    async () => {
      expect(undisturbed).toBeDefined();
      const { api, token } = await tenantApi('Rolled Survey Co');
      const projectId = await captureProject(api, 'Rolled Pit');
      const runId = await uploadSurvey(api, projectId);
      const stopped = await midReconstruction(api, projectId, runId);
      // Scaled to zero as a rollout ends an old pod: SIGTERM, a one-second drain, the run handed back.
      await holdProcess({ dataDir: cluster.dataDir }, 'capture-worker', stopped);
      const run = await settled(api, projectId, runId);
      expect({ status: run.status, error: run.error, attempts: run.attempts }).toEqual({
        status: 'succeeded',
        error: '',
        attempts: 1,
      });
      // The worker logs 'run finished' once capture answered its completion: just after the run reads succeeded.
      const finishers = await eventually(async () => {
        const found = workersLogging(runId, 'run finished');
        return found.length > 0 ? found : undefined;
      }, 10_000);
      expect(finishers).toEqual([1 - stopped]);
      expectSameMeasurement(await quantitiesOf(api, projectId), undisturbed!);
      await expectRecordedOnce(cluster.url, token, runId);
      await restartProcess({ dataDir: cluster.dataDir }, 'capture-worker', stopped);
    },
    2 * RUN_TIMEOUT_MS,
  );

  // Every process runs under node --permission (charts/fieldops/topology.yaml): the workers ran
  // COLMAP, staged photos and read its models, and every other process served, with nothing refused.
  it('refused nothing to any process, the workers running COLMAP included', () => {
    expect(refusalsLogged(cluster.test.cluster.processes.map((p) => p.log))).toEqual([]);
  });
});

/**
 * COLMAP 3.8 (Debian's build) does not repeat itself exactly: its RANSAC in worker threads is
 * seeded from the clock, so two undisturbed runs of this survey differ by up to about 0.6 % in fill
 * and 3 % in footprint, measured here (docs/decisions.md, "The worker-kill test's 'same
 * quantities'"). The takeover run is held to that: the same regions, fill within 2 % and footprint within 8 % of the
 * undisturbed run's, and the truth inside its own band. A run measured from part of the photos, or
 * on top of the dead attempt's leftovers, misses by far more.
 */
function expectSameMeasurement(measured: Quantities, undisturbed: Quantities): void {
  const near = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);
  const [got, want] = [measured.rollup, undisturbed.rollup];
  expect(measured.regions.length).toBe(undisturbed.regions.length);
  expect(near(got.fill, want.fill)).toBeLessThan(0.02);
  expect(near(Number(got['footprint']), Number(want['footprint']))).toBeLessThan(0.08);
  expect(Math.abs(got.fill - survey.trueVolumeM3)).toBeLessThanOrEqual(got.bands['fill']!.plusMinus);
}

/**
 * The audit trail, once the run's success has reached it: one scene and one quantity snapshot,
 * though two workers ran the reconstruction.
 */
async function expectRecordedOnce(url: string, token: string, runId: string): Promise<void> {
  const trail = await eventually(async () => {
    const entries = await readAll<AuditEntry>({ url }, token, '/api/v1/audit');
    const actions = entries.map((entry) => entry.action);
    const arrived = ['run.succeeded', 'scene.ready', 'quantities.recorded'].every((a) => actions.includes(a));
    return arrived ? entries : undefined;
  }, 120_000);
  const count = (action: string) => trail.filter((entry) => entry.action === action).length;
  expect({ runId, scenes: count('scene.ready'), snapshots: count('quantities.recorded') }).toEqual({
    runId,
    scenes: 1,
    snapshots: 1,
  });
}
