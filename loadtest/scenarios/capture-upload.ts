// A drone crew uploading a capture, per the spec's capture session flow: presign a manifest of
// frames (the server mints the keys and answers short-lived PUT URLs pinned to each content type),
// PUT each file's bytes straight to its URL, then finalize (the server verifies its own expected
// keys and meters the real bytes).
//
// The spec names sessionId and the PUT URLs but not the members that carry them, so the reply is
// read loosely: the first array member whose entries hold a `url` (or are URLs) is the upload
// list, each entry's `headers` (if any) are sent with its PUT, else the frame's Content-Type.
//
// Setup probes the presign endpoint first. While it answers 404 (the capture endpoints of issue 5
// are not built yet, or no project could be made to hang the capture on), the scenario is skipped
// with the reason, and it starts running by itself once they exist. Any other refusal fails setup.
import {
  API,
  asRecord,
  asString,
  describe,
  idOf,
  isAbsolute,
  json,
  send,
  SetupError,
  type Flow,
  type Json,
  type Reply,
  type RequestSpec,
} from './http.ts';
import { seedKey, type Scenario, type SetupOutcome } from './scenario.ts';

export interface CaptureData {
  projectId: string;
}

export interface Frame {
  name: string;
  contentType: string;
  /** The file's bytes (ASCII, so its length is its size in bytes). */
  body: string;
}

/**
 * A stockpile as an ASCII PLY point cloud: a cone on a `side` x `side` grid of 0.5 m spacing. The
 * built-in engine reads it, so finalize can start a reconstruction without a photogrammetry
 * engine (images alone are refused at presign where none is configured).
 */
export function stockpileCloud(side: number): string {
  const centre = (side - 1) * 0.25;
  const points: string[] = [];
  for (let i = 0; i < side; i++) {
    for (let j = 0; j < side; j++) {
      const height = Math.max(0, 4 - 0.5 * Math.hypot(i * 0.5 - centre, j * 0.5 - centre));
      points.push(`${(i * 0.5).toFixed(2)} ${(j * 0.5).toFixed(2)} ${height.toFixed(3)}`);
    }
  }
  const header = ['ply', 'format ascii 1.0', `element vertex ${points.length}`];
  const properties = ['property float x', 'property float y', 'property float z', 'end_header'];
  return `${[...header, ...properties, ...points].join('\n')}\n`;
}

/** Stand-in bytes of a photo: the server pins the Content-Type, it does not decode images. */
export function photoBytes(index: number, size: number): string {
  const line = `overview photo ${index} of a load-test capture\n`;
  return line.repeat(Math.ceil(size / line.length)).slice(0, size);
}

/** A quick capture: the crew's point cloud of the stockpile and two overview photos. */
export const FRAMES: readonly Frame[] = [
  { name: 'stockpile.ply', contentType: 'application/ply', body: stockpileCloud(40) },
  { name: 'overview-1.jpg', contentType: 'image/jpeg', body: photoBytes(1, 16 * 1024) },
  { name: 'overview-2.jpg', contentType: 'image/jpeg', body: photoBytes(2, 16 * 1024) },
];

const manifest = FRAMES.map(({ name, contentType, body }) => ({ name, contentType, size: body.length }));
export const CAPTURE_BYTES = manifest.reduce((sum, frame) => sum + frame.size, 0);

const PROBE_PROJECT = 'prj_load_probe';
const presignPath = (projectId: string) => `${API}/projects/${projectId}/capture/presign`;

export function presignRequest(projectId: string, step: string, key: string): RequestSpec {
  return json(step, 'POST', presignPath(projectId), { frames: manifest }, [200, 201], {
    'idempotency-key': key,
  });
}

export interface Upload {
  /** Which frame of the manifest this URL takes (the entry's `index`, else its position). */
  index: number;
  url: string;
  headers: Record<string, string>;
}

const looksLikeUrl = (value: string): boolean => isAbsolute(value) || value.startsWith('/');

/** The PUT targets of a presign reply, in frame order (see the note at the top). */
export function uploadsOf(body: Json): Upload[] {
  for (const value of Object.values(body)) {
    if (!Array.isArray(value) || value.length === 0) continue;
    const uploads = value.map((entry, position): Upload | undefined => {
      const record = asRecord(entry);
      const index = typeof record.index === 'number' ? record.index : position;
      const contentType = FRAMES[index]?.contentType ?? 'application/octet-stream';
      if (typeof entry === 'string') {
        return looksLikeUrl(entry)
          ? { index, url: entry, headers: { 'content-type': contentType } }
          : undefined;
      }
      const url = asString(record.url) || asString(record.putUrl);
      if (!looksLikeUrl(url)) return undefined;
      const given = asRecord(record.headers);
      const headers: Record<string, string> = {};
      for (const [name, v] of Object.entries(given)) headers[name.toLowerCase()] = asString(v);
      // The URL is signed for the frame's exact length, which the client (k6, autocannon) writes
      // itself from the body; a second Content-Length beside it is refused by the HTTP parser.
      delete headers['content-length'];
      headers['content-type'] ??= asString(record.contentType) || contentType;
      return { index, url, headers };
    });
    if (uploads.every((upload) => upload !== undefined)) return uploads as Upload[];
  }
  return [];
}

export const sessionIdOf = (body: Json): string =>
  asString(body.sessionId) ||
  asString(asRecord(body.session).sessionId) ||
  asString(asRecord(body.session).id);

/** A customer and a project to hang the captures on; '' when projects cannot be created here. */
function* project(): Flow<{ projectId: string; problem: string }> {
  const customer = yield* send(
    json(
      'seed customer',
      'POST',
      `${API}/customers`,
      { name: 'Load Capture Customer', opId: seedKey('capture-customer', 0) },
      [200, 201],
    ),
  );
  const body = {
    customerId: idOf(customer, 'customer'),
    customerName: 'Load Capture Customer',
    name: 'Load capture site',
    opId: seedKey('capture-project', 0),
  };
  const created: Reply = yield json('seed project', 'POST', `${API}/projects`, body, [200, 201]);
  if (created.status === 200 || created.status === 201)
    return { projectId: idOf(created, 'project'), problem: '' };
  return { projectId: '', problem: `POST ${API}/projects answered ${describe(created)}` };
}

function* setup(run: string): Flow<SetupOutcome<CaptureData>> {
  const { projectId, problem } = yield* project();
  const request = presignRequest(projectId || PROBE_PROJECT, 'probe presign', `load-${run}-probe`);
  const probe: Reply = yield request;
  if (probe.status === 404) {
    const cause = problem ? ` (and ${problem})` : '';
    return {
      skip:
        `POST ${API}/projects/:id/capture/presign answers ${describe(probe)}${cause}; ` +
        'the capture endpoints are not there yet (issue 5)',
    };
  }
  // Presign exists but refuses the scenario's manifest: the scenario is wrong, which is a failure.
  if (!request.expect.includes(probe.status)) throw new SetupError(request, probe);
  // The probe opened a real session: abort it as failed, which is never charged.
  const sessionId = sessionIdOf(asRecord(probe.body));
  yield {
    step: 'abort probe',
    method: 'POST',
    path: `${API}/projects/${projectId}/capture/${sessionId}/abort?reason=failed`,
    expect: [200],
  };
  return { data: { projectId } };
}

export const captureUpload: Scenario<CaptureData> = {
  name: 'capture_upload',
  title: 'Capture upload',
  description:
    `POST /projects/:id/capture/presign with a manifest of ${FRAMES.length} files ` +
    `(${Math.round(CAPTURE_BYTES / 1024)} KiB: a PLY point cloud and two photos), a PUT of each ` +
    'to its presigned URL, then POST /projects/:id/capture/:sessionId/finalize.',
  vus: 2,
  thresholds: { maxErrorRate: 0.01, maxCheckFailureRate: 0, p95Ms: 1000, p99Ms: 2000 },
  setup: (ctx) => setup(ctx.run),
  *iteration(data, vu, tools) {
    const key = `load-${vu.run}-cap-${vu.vu}-${vu.iteration}`;
    const presigned = yield presignRequest(data.projectId, 'presign', key);
    const body = asRecord(presigned.body);
    const sessionId = sessionIdOf(body);
    const uploads = uploadsOf(body);
    tools.check(
      'presign answers a session and one URL per frame',
      sessionId !== '' && uploads.length === FRAMES.length,
    );
    if (!sessionId || uploads.length !== FRAMES.length) return;
    for (const upload of uploads) {
      yield {
        step: 'put frame',
        method: 'PUT',
        path: upload.url,
        headers: upload.headers,
        body: FRAMES[upload.index]?.body ?? '',
        expect: [200, 201, 204],
      };
    }
    const finalized = yield {
      step: 'finalize',
      method: 'POST',
      path: `${API}/projects/${data.projectId}/capture/${sessionId}/finalize`,
      expect: [200, 201, 202],
    };
    tools.check('finalize accepted', asRecord(finalized.body).ok === true);
  },
};
