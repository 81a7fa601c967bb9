// The measurement rows of `npm run bench` (docs/performance.md, "Measurements"):
//   - `engine`: the built-in engine's points per second on a synthetic LAS cloud (10 million points
//     by default), the same code as services/measure-engine/bench/engine-throughput.ts;
//   - `capture-e2e`: a client's wait from POST .../finalize until GET /projects/:id/quantities
//     answers 200, against the bench's running platform (in-process workers, built-in engine).
import { cone, onPlane, plyBinary, scatter } from '@fieldops/measure-engine/testing';

export { measureEngineThroughput, type EngineThroughput } from '@fieldops/measure-engine/bench';

const POLL_MS = 20;
const E2E_TIMEOUT_MS = 60_000;

/** A stockpile as a capture would upload it: a 10 m cone on a 40 m tilted pad, binary PLY. */
function stockpilePly(): { bytes: Buffer; points: number } {
  const cloud = scatter(onPlane(cone(20, 20, 10, 5), 50, 0.02, -0.01), {
    size: 40,
    density: 12,
    sigma: 0.02,
    seed: 1,
  });
  return { bytes: Buffer.from(plyBinary(cloud)), points: cloud.x.length };
}

type Json = Record<string, unknown>;

/** One API call with the bench's token; throws with the answer unless the status is expected. */
function apiCaller(baseUrl: string, token: string) {
  return async (method: string, path: string, expect: number[], body?: unknown): Promise<Json> => {
    const res = await fetch(`${baseUrl}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as Json;
    if (!expect.includes(res.status))
      throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return { ...json, status: res.status };
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + E2E_TIMEOUT_MS;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${E2E_TIMEOUT_MS / 1000} s`);
    await sleep(POLL_MS);
  }
}

export interface CaptureTiming {
  /** Milliseconds from sending finalize to quantities readable, one per capture. */
  runsMs: number[];
  medianMs: number;
  points: number;
  bytes: number;
}

/**
 * `captures` times over: a fresh project, presign one PLY frame, PUT it, then the timed part —
 * finalize (which queues the run in mode volumes), poll the run until it succeeds, poll the
 * project's quantities until they answer 200. The first capture is a warm-up and not counted.
 */
export async function finalizeToQuantities(
  baseUrl: string,
  token: string,
  captures: number,
): Promise<CaptureTiming> {
  const api = apiCaller(baseUrl, token);
  const { bytes, points } = stockpilePly();
  const customer = (await api('POST', '/customers', [201], { name: 'Bench Quarry Ltd' })).customer as Json;
  const runsMs: number[] = [];
  for (let n = 0; n <= captures; n++) {
    const project = (
      await api('POST', '/projects', [201], {
        customerId: customer.id,
        customerName: 'Bench Quarry Ltd',
        name: `Bench site ${n}`,
      })
    ).project as Json;
    const frame = { name: 'stockpile.ply', contentType: 'application/x-ply', size: bytes.length };
    const presigned = await api('POST', `/projects/${String(project.id)}/capture/presign`, [200, 201], {
      frames: [frame],
    });
    const session = presigned.session as Json;
    const upload = (presigned.uploads as { url: string; headers: Record<string, string> }[])[0];
    if (!upload) throw new Error('presign answered no upload URL');
    const put = await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: bytes });
    if (put.status !== 200) throw new Error(`upload failed: ${put.status} ${await put.text()}`);
    const base = `/projects/${String(project.id)}`;
    const started = performance.now();
    const finalized = await api('POST', `${base}/capture/${String(session.id)}/finalize`, [200]);
    const runId = String((finalized.session as Json).runId);
    await until('the run', async () => {
      const run = (await api('GET', `${base}/runs/${runId}`, [200])).run as Json;
      if (run.status === 'failed') throw new Error(`run ${runId} failed: ${String(run.error)}`);
      return run.status === 'succeeded' ? run : undefined;
    });
    await until('readable quantities', async () => {
      const reply = await api('GET', `${base}/quantities`, [200, 404]);
      return reply.status === 200 ? reply : undefined;
    });
    if (n > 0) runsMs.push(performance.now() - started);
  }
  const sorted = [...runsMs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const medianMs = sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
  return { runsMs, medianMs, points, bytes: bytes.length };
}
