// A small NodeODM that answers as NodeODM 2.2.4 does (OpenDroneMap/NodeODM index.js,
// libs/taskNew.js, libs/auth/TokenAuthBase.js), for the adapter's contract test: every refusal is
// HTTP 200 with an `{error}` body, a wrong token is "Invalid authentication token: …", an unknown
// task is "<uuid> not found", an unknown asset "Invalid asset", an unfinished one "Asset not ready";
// task/info carries status {code, errorMessage?} and progress; task/output a JSON array of lines;
// task/cancel and task/remove take a urlencoded uuid and answer {success}. What the fake does
// beyond that (drop an upload with a 500, fail the task, serve a given all.zip) is scripted.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeTask {
  uuid: string;
  name: string;
  options: { name: string; value: unknown }[];
  images: string[];
  committed: boolean;
  polls: number;
  status: number;
  cancelled: boolean;
  removed: boolean;
}

export interface FakeScript {
  token?: string;
  /** Upload numbers (1-based, over the whole server) answered with HTTP 500, as --test_drop_uploads does. */
  dropUploads?: number[];
  /** Polls of task/info answered RUNNING before the task ends. */
  runningPolls?: number;
  /** The task ends FAILED with this errorMessage instead of COMPLETED. */
  failWith?: string;
  /** The task's console output. */
  output?: string[];
  /** The all.zip served once the task is completed; "Asset not ready" before (and when absent). */
  allZip?: Uint8Array;
  /** Answer task/info with "<uuid> not found" (the node lost the task). */
  forgetTasks?: boolean;
}

export interface FakeNodeOdm {
  url: string;
  tasks: Map<string, FakeTask>;
  requests: string[];
  close(): Promise<void>;
}

const json = (res: ServerResponse, body: unknown, status = 200) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};

async function formOf(req: IncomingMessage, url: URL): Promise<FormData | URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const type = req.headers['content-type'] ?? '';
  if (type.startsWith('application/x-www-form-urlencoded')) return new URLSearchParams(body.toString());
  if (!type.startsWith('multipart/form-data')) return new URLSearchParams();
  return new Request(url, { method: 'POST', headers: { 'content-type': type }, body }).formData();
}

const STATUS = { running: 20, failed: 30, completed: 40, canceled: 50 };

export async function startFakeNodeOdm(script: FakeScript = {}): Promise<FakeNodeOdm> {
  const tasks = new Map<string, FakeTask>();
  const requests: string[] = [];
  let uploads = 0;

  const info = (task: FakeTask) => {
    if (!task.cancelled && task.status === STATUS.running) {
      task.polls++;
      if (task.polls > (script.runningPolls ?? 1))
        task.status = script.failWith ? STATUS.failed : STATUS.completed;
    }
    return {
      uuid: task.uuid,
      name: task.name,
      dateCreated: 0,
      processingTime: task.polls * 1000,
      status: {
        code: task.status,
        ...(task.status === STATUS.failed ? { errorMessage: script.failWith } : {}),
      },
      options: task.options,
      imagesCount: task.images.length,
      progress: task.status === STATUS.completed ? 100 : Math.min(99, task.polls * 30),
    };
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    requests.push(`${req.method} ${url.pathname}`);
    if (script.token !== undefined && url.searchParams.get('token') !== script.token) {
      return json(res, { error: 'Invalid authentication token: token does not match.' });
    }
    const parts = url.pathname.split('/').filter(Boolean);
    const form = req.method === 'POST' ? await formOf(req, url) : new URLSearchParams();
    if (url.pathname === '/task/new/init') {
      const uuid = randomUUID();
      const options = JSON.parse(String(form.get('options') ?? '[]')) as FakeTask['options'];
      tasks.set(uuid, {
        uuid,
        name: String(form.get('name') ?? ''),
        options,
        images: [],
        committed: false,
        polls: 0,
        status: 0,
        cancelled: false,
        removed: false,
      });
      return json(res, { uuid });
    }
    if (parts[0] === 'task' && parts[1] === 'new' && (parts[2] === 'upload' || parts[2] === 'commit')) {
      const task = tasks.get(parts[3] ?? '');
      if (!task || task.committed) return json(res, { error: 'Invalid uuid (not found)' });
      if (parts[2] === 'commit') {
        if (task.images.length === 0) return json(res, { error: 'Need at least 1 file.' });
        task.committed = true;
        task.status = STATUS.running;
        return json(res, { uuid: task.uuid });
      }
      uploads++;
      if (script.dropUploads?.includes(uploads)) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        return void res.end('Internal Server Error');
      }
      const files = (form as FormData).getAll('images').filter((f) => typeof f !== 'string');
      if (files.length === 0) return json(res, { error: 'Need at least 1 file.' });
      task.images.push(...files.map((f) => (f as { name: string }).name));
      return json(res, { success: true });
    }
    if ((url.pathname === '/task/cancel' || url.pathname === '/task/remove') && req.method === 'POST') {
      const uuid = String(form.get('uuid') ?? '');
      if (!uuid) return json(res, { error: 'uuid param missing.' });
      const task = tasks.get(uuid);
      if (!task || !task.committed) return json(res, { success: false, error: `Invalid uuid: ${uuid}` });
      if (url.pathname === '/task/cancel') {
        task.cancelled = true;
        task.status = STATUS.canceled;
      } else {
        task.removed = true;
        tasks.delete(uuid);
        tasks.set(`removed:${uuid}`, task);
      }
      return json(res, { success: true });
    }
    if (parts[0] === 'task' && parts.length >= 3) {
      const task = script.forgetTasks ? undefined : tasks.get(parts[1] ?? '');
      if (!task || !task.committed) return json(res, { error: `${parts[1]} not found` });
      if (parts[2] === 'info') return json(res, info(task));
      if (parts[2] === 'output') {
        const from = Math.max(0, Number(url.searchParams.get('line') ?? 0));
        return json(res, (script.output ?? []).slice(from));
      }
      if (parts[2] === 'download') {
        if (parts[3] !== 'all.zip' && parts[3] !== 'orthophoto.tif')
          return json(res, { error: 'Invalid asset' });
        if (task.status !== STATUS.completed || !script.allZip || parts[3] !== 'all.zip') {
          return json(res, { error: 'Asset not ready' });
        }
        res.writeHead(200, {
          'content-type': 'application/zip',
          'content-disposition': `attachment; filename=${parts[3]}`,
          'content-length': String(script.allZip.byteLength),
        });
        return void res.end(script.allZip);
      }
    }
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end(`Cannot ${req.method} ${url.pathname}`);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => json(res, { error: (error as Error).message }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    tasks,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
