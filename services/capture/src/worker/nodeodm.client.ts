// NodeODM's HTTP API as NodeODM 2.2 answers it (OpenDroneMap/NodeODM index.js, libs/taskNew.js):
// every refusal is HTTP 200 with an `{error}` body ("Invalid authentication token: …",
// "<uuid> not found", "Invalid asset", "Asset not ready"), so each answer's body is checked, not
// only its status. A refused token is permanent (no retry can fix it); a 5xx or a dropped connection
// is transient. Downloads are handed over as streams, never held whole in memory.
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { setTimeout as sleep } from 'node:timers/promises';
import { PermanentEngineFailure } from './engine.port.ts';

/** NodeODM task status codes (libs/statusCodes.js). */
export const TASK_STATUS = { queued: 10, running: 20, failed: 30, completed: 40, canceled: 50 } as const;

export interface TaskInfo {
  uuid: string;
  status: { code: number; errorMessage?: string };
  progress?: number;
  imagesCount?: number;
}

/** NodeODM answered `{error}`: the request was understood and refused. */
export class NodeOdmRefusal extends Error {
  readonly path: string;
  readonly reason: string;
  constructor(path: string, reason: string) {
    super(`NodeODM refused ${path}: ${reason}`);
    this.path = path;
    this.reason = reason;
    this.name = 'NodeOdmRefusal';
  }
}

const AUTH_REFUSAL = /^Invalid authentication token/i;
/** Attempts per image upload before the whole run attempt is given up. */
export const UPLOAD_ATTEMPTS = 3;
const UPLOAD_BACKOFF_MS = 250;

type Body = Record<string, unknown> | unknown[] | undefined;

function refusalOf(path: string, body: Body): Error | null {
  if (!body || Array.isArray(body) || typeof body.error !== 'string') return null;
  if (AUTH_REFUSAL.test(body.error)) {
    return new PermanentEngineFailure(
      `NodeODM refused the access token (FIELDOPS_NODEODM_TOKEN): ${body.error.replace(/\.$/, '')}. Set the token the node was started with.`,
    );
  }
  return new NodeOdmRefusal(path, body.error);
}

async function parsed(res: Response): Promise<Body> {
  const text = await res.text();
  try {
    return JSON.parse(text) as Body;
  } catch {
    return undefined;
  }
}

export function nodeOdmClient(baseUrl: string, token?: string) {
  const url = (path: string, query: Record<string, string> = {}) => {
    const target = new URL(path, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
    for (const [name, value] of Object.entries(query)) target.searchParams.set(name, value);
    if (token) target.searchParams.set('token', token);
    return target;
  };

  async function json<T>(
    path: string,
    init: RequestInit,
    signal: AbortSignal,
    query?: Record<string, string>,
  ) {
    const res = await fetch(url(path, query), { ...init, signal });
    const body = await parsed(res);
    const refusal = refusalOf(path, body);
    if (refusal) throw refusal;
    if (!res.ok) throw new Error(`NodeODM ${path} answered HTTP ${res.status}.`);
    if (body === undefined) throw new Error(`NodeODM ${path} answered something that is not JSON.`);
    return body as T;
  }

  const form = (fields: Record<string, string>) => new URLSearchParams(fields);

  return {
    async init(name: string, options: unknown[], signal: AbortSignal): Promise<string> {
      const body = new FormData();
      body.append('name', name);
      body.append('options', JSON.stringify(options));
      const { uuid } = await json<{ uuid?: string }>('task/new/init', { method: 'POST', body }, signal);
      if (typeof uuid !== 'string') throw new Error('NodeODM task/new/init answered without a uuid.');
      return uuid;
    },

    /** One image, retried alone on a transient failure (NodeODM's test mode drops uploads with a 500). */
    async upload(uuid: string, name: string, image: Blob, signal: AbortSignal): Promise<void> {
      for (let attempt = 1; ; attempt++) {
        const body = new FormData();
        body.append('images', image, name);
        try {
          await json(`task/new/upload/${uuid}`, { method: 'POST', body }, signal);
          return;
        } catch (error) {
          const permanent = error instanceof PermanentEngineFailure || error instanceof NodeOdmRefusal;
          if (permanent || signal.aborted || attempt >= UPLOAD_ATTEMPTS) throw error;
          await sleep(UPLOAD_BACKOFF_MS * attempt, undefined, { signal });
        }
      }
    },

    commit: (uuid: string, signal: AbortSignal) =>
      json<{ uuid: string }>(`task/new/commit/${uuid}`, { method: 'POST' }, signal),

    info: (uuid: string, signal: AbortSignal) =>
      json<TaskInfo>(`task/${uuid}/info`, { method: 'GET' }, signal),

    /** The task's console output (all of it; the caller keeps the tail). */
    async output(uuid: string, signal: AbortSignal): Promise<string[]> {
      const lines = await json<unknown>(`task/${uuid}/output`, { method: 'GET' }, signal, { line: '0' });
      return Array.isArray(lines) ? lines.map(String) : [];
    },

    /** An asset as a stream; a JSON `{error}` answer ("Asset not ready", "Invalid asset") throws. */
    async download(uuid: string, asset: string, signal: AbortSignal): Promise<Readable> {
      const path = `task/${uuid}/download/${asset}`;
      const res = await fetch(url(path), { signal });
      const type = res.headers.get('content-type') ?? '';
      if (type.includes('application/json') || !res.ok || !res.body) {
        const refusal = refusalOf(path, await parsed(res));
        if (refusal) throw refusal;
        throw new Error(`NodeODM ${path} answered HTTP ${res.status} without the asset.`);
      }
      return Readable.fromWeb(res.body as WebReadableStream<Uint8Array>);
    },

    cancel: (uuid: string, signal: AbortSignal) =>
      json(`task/cancel`, { method: 'POST', body: form({ uuid }) }, signal),

    remove: (uuid: string, signal: AbortSignal) =>
      json(`task/remove`, { method: 'POST', body: form({ uuid }) }, signal),
  };
}

export type NodeOdmClient = ReturnType<typeof nodeOdmClient>;
