// Helpers for the capture HTTP tests: a project to capture, a presign, and real uploads of bytes
// to the presigned URLs, as a client in the field would send them.
import { answerOrClosed } from '@fieldops/kit/testing';
import type { Body, Client } from './harness.ts';
import { newCustomer, newProject } from './projects.ts';

export interface UploadUrlBody {
  index: number;
  key: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  expiresAt: string;
}

export type SessionBody = Body & {
  id: string;
  status: string;
  runId: string;
  storedBytes?: number;
  declaredBytes: number;
  frames: { index: number; key: string; contentType: string; declaredSize: number; storedSize?: number }[];
  fee?: { cents: number; currency: string };
  abortOverridden: boolean;
};

export type RunBody = Body & {
  id: string;
  status: string;
  captureId: string;
  mode: string;
  engine: string;
  attempts: number;
  progress: number;
  sceneId: string;
  error: string;
  createdAt: string;
  finishedAt: string;
};

export async function captureProject(api: Client, name = 'Quarry North'): Promise<string> {
  return (await newProject(api, await newCustomer(api, `${name} Ltd`), { name })).id;
}

/** A small ASCII PLY cloud: a 2 m × 2 m plane with a 1 m bump, enough for the built-in engine. */
export function plyCloud(step = 0.25): Buffer {
  const points: string[] = [];
  for (let x = 0; x <= 2; x += step) {
    for (let y = 0; y <= 2; y += step) {
      const z = Math.abs(x - 1) < 0.5 && Math.abs(y - 1) < 0.5 ? 1 : 0;
      points.push(`${x.toFixed(3)} ${y.toFixed(3)} ${z.toFixed(3)}`);
    }
  }
  const header = [
    'ply',
    'format ascii 1.0',
    `element vertex ${points.length}`,
    'property float x',
    'property float y',
    'property float z',
    'end_header',
  ];
  return Buffer.from(`${[...header, ...points].join('\n')}\n`);
}

export const pointFrame = (size: number, name = 'scan.ply') => ({
  name,
  contentType: 'application/x-ply',
  size,
});

export async function presign(
  api: Client,
  projectId: string,
  body: Body,
  headers: Record<string, string> = {},
): Promise<{ session: SessionBody; uploads: UploadUrlBody[] }> {
  const reply = await api.post(`/projects/${projectId}/capture/presign`, body, headers);
  if (reply.status !== 201 && reply.status !== 200)
    throw new Error(`presign failed: ${JSON.stringify(reply.body)}`);
  return { session: reply.body.session as SessionBody, uploads: reply.body.uploads as UploadUrlBody[] };
}

export async function put(
  upload: UploadUrlBody,
  bytes: Buffer | string,
  headers = upload.headers,
): Promise<Response> {
  return fetch(upload.url, { method: 'PUT', headers, body: bytes });
}

/** `put`, for a body the server may refuse from its headers alone (answerOrClosed says why). */
export const putOrClosed = (
  upload: UploadUrlBody,
  bytes: Buffer,
  headers = upload.headers,
): Promise<Response | 'closed'> => answerOrClosed(() => put(upload, bytes, headers));

/** Presigns one point-cloud file, uploads it and finalizes: a capture the built-in engine can process. */
export async function finalizedPointCapture(
  api: Client,
  projectId: string,
  bytes = plyCloud(),
  frame: Body = pointFrame(bytes.length),
): Promise<SessionBody> {
  const { session, uploads } = await presign(api, projectId, { frames: [frame] });
  const res = await put(uploads[0]!, bytes);
  if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
  const reply = await api.post(`/projects/${projectId}/capture/${session.id}/finalize`);
  if (reply.status !== 200) throw new Error(`finalize failed: ${JSON.stringify(reply.body)}`);
  return reply.body.session as SessionBody;
}
