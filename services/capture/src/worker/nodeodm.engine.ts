// The photogrammetry engine port's adapter for OpenDroneMap's NodeODM HTTP API
// (https://github.com/OpenDroneMap/NodeODM/blob/master/docs/index.adoc): create a task, upload the
// capture's images one by one (a failed upload is retried alone), commit, poll its progress into
// the run, stream all.zip to the blob store, and for volumes and surface runs unpack the
// georeferenced point cloud and hand it to the measurement engine. A failed task's error carries
// the last lines of its output log. The task is cancelled and removed on the node whatever the
// outcome (finished, failed, aborted, lease lost): the platform keeps what it needs in its own store.
// Configured by FIELDOPS_NODEODM_URL (and FIELDOPS_NODEODM_TOKEN when the node requires one);
// without it image-only captures are refused up front (runs/feasibility.ts).
import { openPointCloud } from '@fieldops/measure-engine';
import { setTimeout as sleep } from 'node:timers/promises';
import { isImage } from '../session-model/manifest.ts';
import { blobSource } from './blob-source.ts';
import {
  PermanentEngineFailure,
  type EngineIo,
  type EngineJob,
  type EngineResult,
  type ReconstructionEngine,
  type SceneArtifact,
} from './engine.port.ts';
import { captureAccuracy, measureVolumes } from './measure-volumes.ts';
import { TASK_STATUS, nodeOdmClient, type NodeOdmClient } from './nodeodm.client.ts';
import { unpackPointCloud } from './nodeodm.results.ts';

const QUALITY_OPTIONS: Record<string, { name: string; value: unknown }[]> = {
  draft: [{ name: 'fast-orthophoto', value: true }],
  standard: [],
  high: [{ name: 'pc-quality', value: 'high' }],
};
/** Lines of a failed task's output log quoted in the run's error. */
export const LOG_TAIL_LINES = 8;
/** How long cancelling and removing a task on the node may take once the run is over. */
const CLEANUP_MS = 10_000;

/** Modes whose result is measured on the points (the rest store the results zip only). */
const POINT_MODES = new Set(['volumes', 'surface']);

export interface NodeOdmEngineOptions {
  /** Between two task/info polls; default 2 s. */
  pollMs?: number;
}

function optionsFor(job: EngineJob): { name: string; value: unknown }[] {
  // No pc-las: the engine measures the LAZ ODM writes by default, so the node neither writes nor
  // sends the cloud a second time uncompressed.
  return [...(QUALITY_OPTIONS[job.quality] ?? [])];
}

async function uploadImages(client: NodeOdmClient, job: EngineJob, io: EngineIo, uuid: string) {
  const images = job.frames.filter(isImage);
  if (images.length === 0) throw new PermanentEngineFailure('The capture holds no images for NodeODM.');
  for (const [index, frame] of images.entries()) {
    const read = await io.blobs.get(frame.key);
    if (!read) throw new PermanentEngineFailure(`${frame.key} is no longer stored.`);
    const chunks: Uint8Array[] = [];
    for await (const chunk of read.body) chunks.push(chunk as Uint8Array);
    const image = new Blob(chunks, { type: frame.contentType });
    await client.upload(uuid, frame.name || `image-${index + 1}.jpg`, image, io.signal);
    await io.progress(
      (0.2 * (index + 1)) / images.length,
      `uploading images to NodeODM (${index + 1}/${images.length})`,
    );
  }
}

async function failureOf(client: NodeOdmClient, io: EngineIo, uuid: string, message?: string) {
  const lines = await client.output(uuid, io.signal).catch(() => [] as string[]);
  const tail = lines
    .map((line) => line.trim())
    .filter(Boolean)
    .slice(-LOG_TAIL_LINES);
  const log = tail.length > 0 ? ` Last lines of its log: ${tail.join(' | ')}` : '';
  return new PermanentEngineFailure(
    `NodeODM could not reconstruct the capture: ${message ?? 'the task failed'}.${log}`,
  );
}

async function waitForTask(client: NodeOdmClient, io: EngineIo, uuid: string, pollMs: number) {
  for (;;) {
    const info = await client.info(uuid, io.signal);
    if (info.status.code === TASK_STATUS.completed) return;
    if (info.status.code === TASK_STATUS.failed) {
      throw await failureOf(client, io, uuid, info.status.errorMessage);
    }
    if (info.status.code === TASK_STATUS.canceled) {
      throw await failureOf(client, io, uuid, 'the task was cancelled on the node');
    }
    await io.progress(0.2 + 0.6 * ((info.progress ?? 0) / 100), 'reconstructing (NodeODM)');
    await sleep(pollMs, undefined, { signal: io.signal });
  }
}

/** all.zip streamed from the node to the attempt's prefix in the blob store. */
async function storeResults(client: NodeOdmClient, job: EngineJob, io: EngineIo, uuid: string) {
  await io.progress(0.8, 'downloading results (NodeODM)');
  const body = await client.download(uuid, 'all.zip', io.signal);
  const key = job.outputPath('odm-all.zip');
  const head = await io.blobs.put(key, body, { contentType: 'application/zip' });
  return { key, name: 'odm-all.zip', contentType: 'application/zip', size: head.size };
}

/**
 * ODM georeferences the model from the photos' EXIF GPS: no ground control file is sent to the
 * node, so even a capture that had control in the field is measured as consumer-GPS positioned.
 */
const nodeOdmAccuracy = (job: EngineJob) =>
  captureAccuracy({ ...job, control: false }, { positionSource: 'gps' });

async function measuredScene(job: EngineJob, io: EngineIo, zip: SceneArtifact): Promise<EngineResult> {
  const cloud = await unpackPointCloud(io.blobs, zip.key, zip.size, job.outputPath);
  const frame = {
    key: cloud.key,
    name: cloud.name,
    contentType: 'application/octet-stream',
    size: cloud.size,
  };
  const source = blobSource(io.blobs, frame);
  const header = (await openPointCloud(source)).header;
  const quantities =
    job.mode === 'volumes' ? await measureVolumes([source], nodeOdmAccuracy(job), io) : undefined;
  return {
    scene: {
      kind: job.mode === 'surface' ? 'surface' : 'point-cloud',
      pointCount: header.declaredCount,
      ...(header.bounds ? { bounds: header.bounds } : {}),
      formats: [header.format, 'zip'],
    },
    artifacts: [zip, frame],
    ...(quantities ? { quantities } : {}),
  };
}

/** Best effort, on a signal of its own: the run's may already be aborted. */
async function forgetTask(client: NodeOdmClient, uuid: string, running: boolean): Promise<void> {
  const signal = AbortSignal.timeout(CLEANUP_MS);
  if (running) await client.cancel(uuid, signal).catch(() => undefined);
  await client.remove(uuid, signal).catch(() => undefined);
}

export function nodeOdmEngine(
  baseUrl: string,
  token?: string,
  options: NodeOdmEngineOptions = {},
): ReconstructionEngine {
  const client = nodeOdmClient(baseUrl, token);
  const pollMs = options.pollMs ?? 2000;
  return {
    name: 'nodeodm',
    async run(job, io): Promise<EngineResult> {
      const uuid = await client.init(
        `${job.captureId}-${job.runId}-attempt-${job.attempt}`,
        optionsFor(job),
        io.signal,
      );
      let committed = false;
      let finished = false;
      try {
        await uploadImages(client, job, io, uuid);
        await client.commit(uuid, io.signal);
        committed = true;
        await waitForTask(client, io, uuid, pollMs);
        finished = true;
        const zip = await storeResults(client, job, io, uuid);
        const result = POINT_MODES.has(job.mode)
          ? await measuredScene(job, io, zip)
          : { scene: { kind: 'orthomosaic' as const, pointCount: 0, formats: ['zip'] }, artifacts: [zip] };
        await io.progress(1, 'outputs stored');
        return result;
      } finally {
        await forgetTask(client, uuid, committed && !finished);
      }
    },
  };
}
