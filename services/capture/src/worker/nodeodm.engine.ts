// The photogrammetry engine port's adapter for OpenDroneMap's NodeODM HTTP API
// (https://github.com/OpenDroneMap/NodeODM/blob/master/docs/index.adoc): create a task, upload the
// capture's images, commit, poll its progress into the run, then store the task's outputs as the
// scene's artifacts. Configured by FIELDOPS_NODEODM_URL (and FIELDOPS_NODEODM_TOKEN when the node
// requires one); without it image-only captures are refused up front (runs/feasibility.ts).
import { isImage } from '../sessions/manifest.js';
import {
  PermanentEngineFailure,
  type EngineIo,
  type EngineJob,
  type EngineResult,
  type ReconstructionEngine,
} from './engine.port.js';

/** NodeODM task status codes. */
const STATUS = { queued: 10, running: 20, failed: 30, completed: 40, canceled: 50 } as const;
const POLL_MS = 2000;

const QUALITY_OPTIONS: Record<string, { name: string; value: unknown }[]> = {
  draft: [{ name: 'fast-orthophoto', value: true }],
  standard: [],
  high: [{ name: 'pc-quality', value: 'high' }],
};

export function nodeOdmEngine(baseUrl: string, token?: string): ReconstructionEngine {
  const url = (path: string) => {
    const target = new URL(path, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
    if (token) target.searchParams.set('token', token);
    return target;
  };

  async function call<T>(path: string, init: RequestInit, signal: AbortSignal): Promise<T> {
    const res = await fetch(url(path), { ...init, signal });
    const body = (await res.json().catch(() => ({}))) as T & { error?: string };
    if (!res.ok || body.error) throw new Error(`NodeODM ${path}: ${body.error ?? res.status}`);
    return body;
  }

  async function upload(job: EngineJob, io: EngineIo, uuid: string): Promise<void> {
    const images = job.frames.filter(isImage);
    for (const [index, frame] of images.entries()) {
      const read = await io.blobs.get(frame.key);
      if (!read) throw new PermanentEngineFailure(`${frame.key} is no longer stored.`);
      const chunks: Uint8Array[] = [];
      for await (const chunk of read.body) chunks.push(chunk as Uint8Array);
      const form = new FormData();
      form.append(
        'images',
        new Blob(chunks, { type: frame.contentType }),
        frame.name || `image-${index + 1}.jpg`,
      );
      await call(`task/new/upload/${uuid}`, { method: 'POST', body: form }, io.signal);
      await io.progress(
        (0.2 * (index + 1)) / images.length,
        `uploading images to NodeODM (${index + 1}/${images.length})`,
      );
    }
  }

  async function waitForTask(io: EngineIo, uuid: string): Promise<void> {
    for (;;) {
      const info = await call<{ status: { code: number; errorMessage?: string }; progress: number }>(
        `task/${uuid}/info`,
        { method: 'GET' },
        io.signal,
      );
      if (info.status.code === STATUS.completed) return;
      if (info.status.code === STATUS.failed || info.status.code === STATUS.canceled) {
        throw new PermanentEngineFailure(
          `NodeODM could not reconstruct the capture: ${info.status.errorMessage ?? 'task failed'}.`,
        );
      }
      await io.progress(0.2 + 0.7 * (info.progress / 100), 'reconstructing (NodeODM)');
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  return {
    name: 'nodeodm',
    async run(job, io): Promise<EngineResult> {
      const form = new FormData();
      form.append('name', `${job.captureId}-${job.runId}-attempt-${job.attempt}`);
      form.append('options', JSON.stringify(QUALITY_OPTIONS[job.quality] ?? []));
      const { uuid } = await call<{ uuid: string }>(
        'task/new/init',
        { method: 'POST', body: form },
        io.signal,
      );
      await upload(job, io, uuid);
      await call(`task/new/commit/${uuid}`, { method: 'POST' }, io.signal);
      await waitForTask(io, uuid);
      const res = await fetch(url(`task/${uuid}/download/all.zip`), { signal: io.signal });
      if (!res.ok || !res.body) throw new Error(`NodeODM download failed: ${res.status}`);
      const key = job.outputPath('odm-all.zip');
      const head = await io.blobs.put(key, Buffer.from(await res.arrayBuffer()), {
        contentType: 'application/zip',
      });
      await io.progress(1, 'outputs stored');
      return {
        scene: {
          kind: job.mode === 'orthomosaic' ? 'orthomosaic' : 'model',
          pointCount: 0,
          formats: ['zip'],
        },
        artifacts: [{ key, name: 'odm-all.zip', contentType: 'application/zip', size: head.size }],
      };
    },
  };
}
