// The NodeODM adapter against a fake that answers as NodeODM 2.2.4 does (fake-nodeodm.ts): a
// volumes run unpacks the georeferenced cloud from all.zip and measures it; `{error}` bodies with
// HTTP 200 are refusals, not results; a wrong token fails at once; a dropped upload is retried
// alone; a failed task quotes its log; every task ends cancelled and removed on the node.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { openEmbeddedBlobStore, blobKey, type BlobKey, type BlobStore } from '@fieldops/kit/blobs';
import { cone, las, lasToLaz, onPlane, scatter } from '@fieldops/measure-engine/testing';
import { PermanentEngineFailure, type EngineIo, type EngineJob } from '../src/worker/engine.port.ts';
import { NodeOdmRefusal } from '../src/worker/nodeodm.client.ts';
import { nodeOdmEngine } from '../src/worker/nodeodm.engine.ts';
import { startFakeNodeOdm, type FakeNodeOdm, type FakeScript } from './fake-nodeodm.ts';
import { zipBytes } from './zip-bytes.ts';

const TENANT = 'ten_nodeodm';
const CONE_VOLUME = (Math.PI * 10 * 10 * 5) / 3;
const LAS_PATH = 'odm_georeferencing/odm_georeferenced_model.las';
/** What ODM 2.x writes by default, and all a node gives when it is not asked for pc-las. */
const LAZ_PATH = 'odm_georeferencing/odm_georeferenced_model.laz';

let dir: string;
let blobs: BlobStore;
let fake: FakeNodeOdm | undefined;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'nodeodm-'));
  blobs = await openEmbeddedBlobStore({ dir: join(dir, 'blobs') });
});

afterEach(async () => {
  await fake?.close();
  fake = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const coneLas = () =>
  las(scatter(onPlane(cone(20, 20, 10, 5), 100, 0, 0), { x0: 0, size: 40, density: 6, sigma: 0.02 }));

async function jobWithImages(mode: string, count = 3): Promise<EngineJob> {
  const frames = [];
  for (let i = 1; i <= count; i++) {
    const key = blobKey(TENANT, 'captures', 'cap_1', 'frames', `0000${i}.jpg`);
    await blobs.put(key, new Uint8Array([0xff, 0xd8, i, 0xff, 0xd9]), { contentType: 'image/jpeg' });
    frames.push({ key, name: `IMG_${i}.JPG`, contentType: 'image/jpeg', size: 5 });
  }
  return {
    tenantId: TENANT,
    projectId: 'prj_1',
    captureId: 'cap_1',
    runId: 'run_1',
    attempt: 1,
    mode,
    quality: 'standard',
    frames,
    control: false,
    hasLidar: false,
    outputPath: (name: string) => blobKey(TENANT, 'runs', 'run_1', 'attempt-1', name) as BlobKey,
  };
}

function io(signal = new AbortController().signal): EngineIo & { phases: string[] } {
  const phases: string[] = [];
  return {
    blobs,
    signal,
    phases,
    progress: async (_fraction: number, phase: string) => void phases.push(phase),
  };
}

async function engineOn(script: FakeScript, token?: string) {
  fake = await startFakeNodeOdm(script);
  return nodeOdmEngine(fake.url, token, { pollMs: 1 });
}

const onlyTask = () => [...(fake as FakeNodeOdm).tasks.values()];

describe('NodeODM adapter (contract with NodeODM 2.2.4 answers)', () => {
  it('measures a volumes run on the georeferenced LAZ unpacked from all.zip, unconverted, then removes the task', async () => {
    const coneLaz = lasToLaz(coneLas());
    const engine = await engineOn(
      {
        token: 'secret',
        runningPolls: 2,
        allZip: zipBytes({ 'odm_report/report.pdf': new Uint8Array(10), [LAZ_PATH]: coneLaz }),
      },
      'secret',
    );
    const run = io();
    const result = await engine.run(await jobWithImages('volumes'), run);
    expect(result.scene.kind).toBe('point-cloud');
    expect(result.scene.pointCount).toBe(40 * 40 * 6);
    expect(result.artifacts.map((a) => a.name)).toEqual(['odm-all.zip', 'odm_georeferenced_model.laz']);
    const net = result.quantities?.rollup?.net ?? NaN;
    const band = result.quantities?.rollup?.bands['net']?.plusMinus ?? 0;
    expect(Math.abs(net - CONE_VOLUME)).toBeLessThanOrEqual(band);
    // ODM georeferences from the photos' EXIF GPS: the band says so.
    expect(result.quantities?.errorModel?.profile?.name).toBe('photogrammetry/gps');
    const [task] = onlyTask();
    expect(task?.images).toEqual(['IMG_1.JPG', 'IMG_2.JPG', 'IMG_3.JPG']);
    expect(task?.options.map((o) => o.name)).not.toContain('pc-las');
    expect(task?.removed).toBe(true);
    expect(run.phases).toContain('reconstructing (NodeODM)');
    // The LAZ is stored as the node gave it: compressed, not converted.
    const stored = await blobs.head(result.artifacts[1]!.key);
    expect(stored?.size).toBe(coneLaz.byteLength);
    expect(stored?.size).toBeLessThan(coneLas().byteLength / 2);
  });

  it('retries a dropped image upload alone, in the same task', async () => {
    const engine = await engineOn({ dropUploads: [2], allZip: zipBytes({ [LAS_PATH]: coneLas() }) });
    await engine.run(await jobWithImages('surface'), io());
    const tasks = onlyTask();
    expect(tasks).toHaveLength(1);
    expect(tasks[0]?.images).toEqual(['IMG_1.JPG', 'IMG_2.JPG', 'IMG_3.JPG']);
    expect(fake?.requests.filter((r) => r.startsWith('POST /task/new/upload'))).toHaveLength(4);
  });

  it('refuses a wrong token at once, without retrying', async () => {
    const engine = await engineOn({ token: 'right' });
    const error = await engine.run(await jobWithImages('volumes'), io()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermanentEngineFailure);
    expect((error as Error).message).toMatch(/FIELDOPS_NODEODM_TOKEN/);
    expect(fake?.requests).toEqual(['POST /task/new/init']);
  });

  it('fails a failed task with the last lines of its log, and removes it', async () => {
    const output = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).concat([
      'ERROR: Not enough images with GPS to georeference',
    ]);
    const engine = await engineOn({ failWith: 'Process exited with code 1', output });
    const error = await engine.run(await jobWithImages('volumes'), io()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermanentEngineFailure);
    expect((error as Error).message).toMatch(/Process exited with code 1/);
    expect((error as Error).message).toMatch(/line 30 \| ERROR: Not enough images with GPS/);
    expect((error as Error).message).not.toMatch(/line 20 /);
    expect(onlyTask()[0]?.removed).toBe(true);
  });

  it('treats an {error} body with HTTP 200 as a refusal: "Asset not ready" stores no zip', async () => {
    const engine = await engineOn({});
    const job = await jobWithImages('orthomosaic');
    const error = await engine.run(job, io()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NodeOdmRefusal);
    expect((error as Error).message).toMatch(/Asset not ready/);
    expect(await blobs.head(job.outputPath('odm-all.zip'))).toBeNull();
  });

  it('fails with a reason when the results hold no cloud, or a LAZ that is not one', async () => {
    let engine = await engineOn({
      allZip: zipBytes({ 'odm_orthophoto/odm_orthophoto.tif': new Uint8Array(4) }),
    });
    let error = await engine.run(await jobWithImages('volumes'), io()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermanentEngineFailure);
    expect((error as Error).message).toMatch(/no georeferenced point cloud/);
    await fake?.close();
    engine = await engineOn({
      allZip: zipBytes({ 'odm_georeferencing/odm_georeferenced_model.laz': new Uint8Array(4) }),
    });
    error = await engine.run(await jobWithImages('volumes'), io()).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/odm_georeferenced_model\.laz/);
  });

  it('a task the node lost ("<uuid> not found") is a transient failure the worker retries', async () => {
    const engine = await engineOn({ forgetTasks: true });
    const error = await engine.run(await jobWithImages('volumes'), io()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NodeOdmRefusal);
    expect(error).not.toBeInstanceOf(PermanentEngineFailure);
    expect((error as Error).message).toMatch(/not found/);
  });

  it('cancels and removes the task on the node when the run is aborted (lease lost, shutdown)', async () => {
    const engine = await engineOn({ runningPolls: 1_000_000 });
    const controller = new AbortController();
    const run = io(controller.signal);
    const progress = run.progress;
    run.progress = async (fraction, phase) => {
      await progress(fraction, phase);
      if (phase.startsWith('reconstructing')) controller.abort(new Error('lease lost'));
    };
    await expect(engine.run(await jobWithImages('volumes'), run)).rejects.toThrow();
    const [task] = onlyTask();
    expect(task?.cancelled).toBe(true);
    expect(task?.removed).toBe(true);
  });
});
