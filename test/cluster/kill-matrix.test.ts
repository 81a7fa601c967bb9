// Every process kind SIGKILLed in turn, and the Kafka broker, Redis and the S3 server stopped and
// started again, on ONE cluster under a mixed load that runs throughout (issue 33): tens of
// clients doing keyed writes (Idempotency-Key), reads that reach every service, exports, webhook
// deliveries to a receiver on 127.0.0.1, and capture runs on the workers. Nothing here restarts a
// process: the cluster's supervisor (scripts/cluster/process-supervisor.mjs) does, as the kubelet
// would. The broker, Redis and the S3 server are this test's own (free ports), never the run's.
//
// Afterwards: every acknowledged write exists exactly once and so does its audit entry, the chain
// verifies; each subscription received every lead event, by event id, and no other; every queued
// run and export ended; and while a kind was down its requests got the envelope's 503 with
// retryable: true, never a 500 nor an answer later than the deadline. The figures per kind go to
// the log and to $FIELDOPS_TEST_ARTIFACTS/kill-matrix.md (docs/deploy.md's table).
//
// The capture runs are point-cloud captures on the built-in engine, not COLMAP surveys: a survey
// takes minutes on two loaded cores, which this one-cluster CI budget has not got. worker-kill
// covers a COLMAP run killed mid-reconstruction.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { awaitRestarted, clusterStatus, killProcess } from '../../scripts/cluster/cluster.mjs';
import { readTopology } from '../../scripts/topology.mjs';
import { freePort, startBroker, stopBroker } from '../../scripts/kafka/broker.mjs';
import { startS3, stopS3 } from '../../scripts/s3/server.mjs';
import { captureProject, finalizedPointCapture } from '../support/capture.ts';
import { clusterOfFile } from '../support/cluster.ts';
import { eventually, httpClient, type Body } from '../support/harness.ts';
import { expectExactlyOnce, nameOf, readAll, type AuditEntry } from '../support/keyed-writes.ts';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

/** The gateway's gRPC deadline (10 s) and a margin for a loaded machine: an answer later is a hang. */
const DEADLINE_MS = 10_000;
const HANG_MS = DEADLINE_MS + 15_000;
const WRITERS = 16;
const READERS = 8;
const SERVICE_KINDS = ['crm', 'audit', 'capture', 'exports', 'measurements', 'projects', 'webhooks'];
/** How long each host service stays stopped while the load runs. */
const OUTAGE_MS = 5_000;
/** Load between two kills, so each kind's restart is followed by ordinary traffic. */
const BETWEEN_MS = 3_000;

const work = mkdtempSync(join(tmpdir(), 'fieldops-kill-matrix-'));
const own = { env: {} as Record<string, string>, redis: undefined as ChildProcess | undefined, redisPort: 0 };

/** A redis-server of this test's own (append-only file, so a restart keeps its data, as a volume would). */
function startRedis(): ChildProcess {
  mkdirSync(join(work, 'redis'), { recursive: true });
  const child = spawn(
    'redis-server',
    ['--port', String(own.redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes'],
    { cwd: join(work, 'redis'), stdio: 'ignore' },
  );
  return child;
}

/** Whether this test's Redis answers PING now. */
function redisAnswers(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port: own.redisPort });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

beforeAll(async () => {
  // Named here rather than as a PING that never answers: CI installs Redis (.ci/run).
  if (spawnSync('redis-server', ['--version']).status !== 0)
    throw new Error('redis-server is required: the kill matrix stops and starts a Redis of its own.');
  own.redisPort = await freePort();
  own.redis = startRedis();
  await eventually(async () => ((await redisAnswers()) ? true : undefined), 30_000);
  const broker = await startBroker({ dir: join(work, 'kafka'), port: 0 });
  const s3 = await startS3({ dir: join(work, 's3'), port: 0 });
  Object.assign(own.env, {
    ...s3.env,
    KAFKA_BROKERS: broker.brokers,
    REDIS_URL: `redis://127.0.0.1:${own.redisPort}`,
    FIELDOPS_COLMAP_BIN: 'off',
    // The receiver listens on 127.0.0.1, which the SSRF guard refuses unless told otherwise.
    FIELDOPS_WEBHOOK_ALLOW_PRIVATE: '1',
    FIELDOPS_WEBHOOK_POLL_MS: '200',
    FIELDOPS_WEBHOOK_TENANT_CONCURRENCY: '8',
    FIELDOPS_EXPORT_POLL_MS: '500',
  });
}, 300_000);

const cluster = clusterOfFile('Kill Matrix Co', { env: own.env, workers: 2 });

afterAll(async () => {
  own.redis?.kill('SIGKILL');
  await stopBroker({ dir: join(work, 'kafka'), kill: true }).catch(() => false);
  await stopS3({ dir: join(work, 's3'), kill: true }).catch(() => false);
  rmSync(work, { recursive: true, force: true });
}, 120_000);

// ---- the load -------------------------------------------------------------------------------------

interface Sample {
  /** The kind a request needs (the gateway aside). */
  kind: string;
  at: number;
  ms: number;
  /** HTTP status, or 0 when no answer came (no gateway listening, or aborted). */
  status: number;
  retryable?: boolean;
  error?: string;
}

class Load {
  readonly samples: Sample[] = [];
  readonly acknowledged = new Map<string, string>();
  readonly pending = new Set<string>();
  readonly runs: { projectId: string; runId: string }[] = [];
  readonly exports: string[] = [];
  running = true;
  #next = 0;
  #loops: Promise<void>[] = [];

  readonly url: string;
  readonly token: string;
  constructor(url: string, token: string) {
    this.url = url;
    this.token = token;
  }

  /** One request, timed and classified; answers the parsed body when there is one. */
  async request(
    kind: string,
    method: string,
    path: string,
    body?: unknown,
    key?: string,
  ): Promise<Body | undefined> {
    const at = Date.now();
    try {
      const res = await fetch(`${this.url}/api/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(key ? { 'idempotency-key': key } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(HANG_MS),
      });
      const text = await res.text();
      const parsed = (text ? JSON.parse(text) : {}) as Body;
      this.samples.push({
        kind,
        at,
        ms: Date.now() - at,
        status: res.status,
        retryable: parsed['retryable'] === true,
      });
      return res.ok ? parsed : undefined;
    } catch (err) {
      const error = (err as Error).name === 'TimeoutError' ? 'timeout' : String((err as Error).cause ?? err);
      this.samples.push({ kind, at, ms: Date.now() - at, status: 0, error });
      await pause(100);
      return undefined;
    }
  }

  /** A writer: each key is retried until acknowledged (2xx), as a client with an Idempotency-Key does. */
  async writer(): Promise<void> {
    while (this.running) {
      const key = `matrix-${String(this.#next++).padStart(5, '0')}`;
      this.pending.add(key);
      await this.untilAcknowledged(key, () => this.running);
      // A client's pace, not a flood: thousands of leads would only lengthen the audit checks.
      await pause(250);
    }
  }

  async untilAcknowledged(key: string, keepGoing: () => boolean): Promise<void> {
    while (keepGoing() || this.pending.has(key)) {
      const reply = await this.request('crm', 'POST', '/leads', { name: nameOf(key) }, key);
      const lead = reply?.['lead'] as { id: string } | undefined;
      if (lead) {
        this.acknowledged.set(key, lead.id);
        this.pending.delete(key);
        return;
      }
      if (!keepGoing()) return;
      await pause(200);
    }
  }

  /** A reader going round reads that need each service. */
  async reader(offset: number): Promise<void> {
    const reads: [string, () => string][] = [
      ['crm', () => '/leads?limit=20'],
      ['projects', () => '/projects?limit=20'],
      ['audit', () => '/audit?limit=20'],
      ['webhooks', () => '/webhooks?limit=20'],
      ['exports', () => '/exports?limit=20'],
      [
        'capture',
        () =>
          this.runs[0] ? `/projects/${this.runs[0].projectId}/runs/${this.runs[0].runId}` : '/leads?limit=1',
      ],
      [
        'measurements',
        () => (this.runs[0] ? `/projects/${this.runs[0].projectId}/quantities` : '/leads?limit=1'),
      ],
    ];
    for (let n = offset; this.running; n += 1) {
      const [kind, path] = reads[n % reads.length]!;
      await this.request(kind, 'GET', path());
      await pause(150);
    }
  }

  /** Capture runs one after another on the workers (point clouds, the built-in engine). */
  async photographer(projectId: string): Promise<void> {
    const api = httpClient(`${this.url}/api/v1`, this.token);
    while (this.running) {
      try {
        const session = await finalizedPointCapture(api, projectId);
        this.runs.push({ projectId, runId: session.runId });
        await eventually(async () => {
          const run = await this.request('capture', 'GET', `/projects/${projectId}/runs/${session.runId}`);
          const status = (run?.['run'] as { status: string } | undefined)?.status;
          return status === 'succeeded' || status === 'failed' ? status : undefined;
        }, 300_000);
      } catch {
        // A presign, upload or finalize refused while a kind was down: try a new capture.
        await pause(500);
      }
    }
  }

  /** Exports one after another, each with an opId of its own, retried until accepted. */
  async exporter(): Promise<void> {
    for (let n = 0; this.running; n += 1) {
      let id: string | undefined;
      while (!id && this.running) {
        const reply = await this.request('exports', 'POST', '/exports', { opId: `matrix-export-${n}` });
        id = (reply?.['export'] as { id: string } | undefined)?.id;
        if (!id) await pause(500);
      }
      if (!id) return;
      this.exports.push(id);
      await this.exportEnded(id, () => this.running);
    }
  }

  async exportEnded(id: string, keepGoing: () => boolean): Promise<string | undefined> {
    while (keepGoing()) {
      const reply = await this.request('exports', 'GET', `/exports/${id}`);
      const status = (reply?.['export'] as { status: string } | undefined)?.status;
      if (status === 'ready' || status === 'failed') return status;
      await pause(500);
    }
    return undefined;
  }

  start(projectId: string): void {
    this.#loops = [
      ...Array.from({ length: WRITERS }, () => this.writer()),
      ...Array.from({ length: READERS }, (_, n) => this.reader(n)),
      this.photographer(projectId),
      this.exporter(),
    ];
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.#loops);
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- the kills ------------------------------------------------------------------------------------

interface Phase {
  target: string;
  what: string;
  from: number;
  /** When the supervisor reported it ready again (or the service was started again). */
  back: number;
  refused: number;
  /** From the first refusal to the last of the requests that needed it, in ms. */
  refusedMs: number;
  checked: string;
}

const phases: Phase[] = [];

/** Requests that needed `kinds` answered between `from` and `until`: refusals and what else came. */
function refusalsBetween(load: Load, kinds: string[] | 'all', from: number, until: number) {
  const inWindow = load.samples.filter(
    (s) => s.at >= from && s.at <= until && (kinds === 'all' || kinds.includes(s.kind)),
  );
  const refused = inWindow.filter((s) => s.status === 503 || s.status === 0);
  const times = refused.map((s) => s.at);
  return {
    refused: refused.length,
    refusedMs: times.length > 1 ? Math.max(...times) - Math.min(...times) : 0,
  };
}

async function killKind(load: Load, kind: string, index = 0): Promise<void> {
  const from = Date.now();
  const before = await killProcess({ dataDir: cluster.dataDir }, kind, index);
  expect({ kind, killed: before !== undefined }).toEqual({ kind, killed: true });
  await awaitRestarted({ dataDir: cluster.dataDir }, kind, index, before);
  const back = Date.now();
  await pause(BETWEEN_MS);
  const kinds = kind === 'gateway' ? 'all' : kind === 'capture-worker' ? ['capture'] : [kind];
  const { refused, refusedMs } = refusalsBetween(load, kinds, from, Date.now());
  phases.push({
    target: kind === 'capture-worker' ? 'capture-worker-1' : kind,
    what: 'SIGKILL (with its child processes); restarted by the supervisor',
    from,
    back,
    refused,
    refusedMs,
    checked: '',
  });
}

async function outage(
  load: Load,
  target: string,
  stop: () => Promise<unknown>,
  start: () => Promise<unknown>,
) {
  const from = Date.now();
  await stop();
  await pause(OUTAGE_MS);
  await start();
  const back = Date.now();
  await pause(BETWEEN_MS);
  const { refused, refusedMs } = refusalsBetween(load, 'all', from, Date.now());
  phases.push({
    target,
    what: `stopped ${OUTAGE_MS / 1000} s, then started on its port`,
    from,
    back,
    refused,
    refusedMs,
    checked: '',
  });
}

// ---- the test ---------------------------------------------------------------------------------------

describe('readiness of the cluster processes', () => {
  it('shows, for every process that dials peers (topology.yaml dials), each peer as a peer:<service> check', async () => {
    const status = clusterStatus({ dataDir: cluster.dataDir })!;
    const dials = new Map(readTopology().map((kind) => [kind.component, kind.dials]));
    for (const p of status.processes) {
      const res = await fetch(`http://127.0.0.1:${p.opsPort}/readyz`, {
        signal: AbortSignal.timeout(10_000),
      });
      const body = (await res.json()) as { ok: boolean; checks: Record<string, boolean> };
      const peers = Object.keys(body.checks).filter((name) => name.startsWith('peer:'));
      expect({ process: p.name, ok: body.ok, peers: peers.sort() }).toEqual({
        process: p.name,
        ok: true,
        peers: (dials.get(p.kind) ?? []).map((peer) => `peer:${peer}`).sort(),
      });
    }
  });
});

describe('every kind killed, and the broker, Redis and S3 stopped, under a mixed load on one cluster', () => {
  let receiver: WebhookReceiver;
  afterAll(() => receiver?.close());

  it('loses nothing acknowledged, delivers every event once per subscription, ends every run, refuses only with retryable 503s', async () => {
    const started = Date.now();
    const { url, token } = cluster;
    const api = httpClient(`${url}/api/v1`, token);
    receiver = await startReceiver();
    for (const path of ['/hook-a', '/hook-b']) {
      const reply = await api.post('/webhooks', { url: receiver.url(path), eventTypes: ['lead.created'] });
      expect(reply.status).toBe(201);
    }
    const projectId = await captureProject(api, 'Matrix Pit');
    const load = new Load(url, token);
    load.start(projectId);
    await pause(BETWEEN_MS);

    for (const kind of ['gateway', ...SERVICE_KINDS]) await killKind(load, kind);
    await killKind(load, 'capture-worker', 0);
    const kafkaDir = join(work, 'kafka');
    await outage(
      load,
      'Kafka broker',
      () => stopBroker({ dir: kafkaDir }),
      () => startBroker({ dir: kafkaDir, port: 0 }),
    );
    await outage(
      load,
      'Redis',
      async () => {
        own.redis?.kill('SIGKILL');
        await eventually(async () => ((await redisAnswers()) ? undefined : true), 30_000);
      },
      async () => {
        own.redis = startRedis();
        await eventually(async () => ((await redisAnswers()) ? true : undefined), 30_000);
      },
    );
    const s3Dir = join(work, 's3');
    await outage(
      load,
      'S3 server',
      () => stopS3({ dir: s3Dir }),
      () => startS3({ dir: s3Dir, port: 0 }),
    );
    await load.stop();
    // The figures first, so a failing check below still leaves them in the log.
    const restarts = clusterStatus({ dataDir: cluster.dataDir })!.processes.map(
      (p) => `${p.name} ${p.restarts}`,
    );
    report(
      started,
      `(checks follow) restarts by the supervisor: ${restarts.join(', ')}`,
      load.samples.length,
    );

    // Keys still unacknowledged are retried with their keys until applied.
    for (const key of [...load.pending]) await load.untilAcknowledged(key, () => true);
    const ids = new Map([...load.acknowledged]);
    expect(ids.size).toBeGreaterThan(WRITERS);

    // While a kind was down: 2xx or the envelope's 503 with retryable: true; no answer only while
    // the gateway itself was down; never a 500, never an answer past the deadline.
    const gateway = phases.find((p) => p.target === 'gateway')!;
    const wrong = load.samples.filter((s) => {
      // A request in flight when the gateway died (sent before the kill) loses its connection too.
      if (s.status === 0) return s.error === 'timeout' || s.at + s.ms < gateway.from || s.at > gateway.back;
      if (s.ms > HANG_MS) return true;
      return s.status >= 500 && !(s.status === 503 && s.retryable);
    });
    expect(wrong.slice(0, 10)).toEqual([]);
    for (const kind of SERVICE_KINDS) {
      const phase = phases.find((p) => p.target === kind)!;
      // The kill was felt: requests that needed it were refused (a test that cannot fail proves nothing).
      expect({ kind, refusedSome: phase.refused > 0 }).toEqual({ kind, refusedSome: true });
    }

    // The audit trail catches up through Kafka after the broker's outage: wait for every lead's
    // entry (up to 5 min) before the exactly-once check, whose own settling wait is 60 s.
    await eventually(async () => {
      const entries = await readAll<AuditEntry>({ url }, token, '/api/v1/audit');
      return entries.filter((e) => e.resourceKind === 'lead').length >= ids.size ? true : undefined;
    }, 300_000).catch(() => undefined);
    // Every acknowledged write once, its audit entry once, and the chain verifies.
    await expectExactlyOnce({ url }, token, ids);

    // Each subscription received every lead event (webhook-id is the event id), and no other.
    const trail = await readAll<AuditEntry>({ url }, token, '/api/v1/audit');
    const leadEvents = new Set(trail.filter((e) => e.action === 'lead.created').map((e) => e.eventId));
    for (const path of ['/hook-a', '/hook-b']) {
      const got = await eventually(async () => {
        const seen = new Set(receiver.received(path).map((r) => r.headers['webhook-id']));
        return [...leadEvents].every((id) => seen.has(id)) ? seen : undefined;
      }, 180_000);
      expect({ path, events: got.size }).toEqual({ path, events: leadEvents.size });
    }

    // Every queued run ended, once: one run.succeeded or run.failed entry per run.
    const runs = [...load.runs];
    expect(runs.length).toBeGreaterThan(0);
    const ended = await eventually(async () => {
      const entries = await readAll<AuditEntry>({ url }, token, '/api/v1/audit');
      const ends = entries.filter((e) => e.action === 'run.succeeded' || e.action === 'run.failed');
      return runs.every((r) => ends.some((e) => e.resourceId === r.runId)) ? ends : undefined;
    }, 300_000);
    for (const run of runs) {
      expect({ run: run.runId, ends: ended.filter((e) => e.resourceId === run.runId).length }).toEqual({
        run: run.runId,
        ends: 1,
      });
    }
    // Every export ended.
    for (const id of load.exports) {
      const status = await load.exportEnded(id, () => true);
      expect({ id, status }).toEqual({ id, status: 'ready' });
    }

    const checked =
      `${ids.size} keyed writes once with one audit entry each, chain verified; ${leadEvents.size} events to each ` +
      `of 2 subscriptions; ${runs.length} runs ended once; ${load.exports.length} exports ready`;
    report(started, checked, load.samples.length);
  }, 2_400_000);
});

/** The per-kind figures, printed and written for docs/deploy.md. */
function report(started: number, checked: string, requests: number): void {
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  const lines = [
    `Kill matrix: ${requests} requests over ${seconds(Date.now() - started)} s; afterwards: ${checked}.`,
    '',
    '| Killed | How | Back after (s) | Requests refused | Refused for (s) |',
    '| --- | --- | ---: | ---: | ---: |',
    ...phases.map(
      (p) =>
        `| ${p.target} | ${p.what} | ${seconds(p.back - p.from)} | ${p.refused} | ${seconds(p.refusedMs)} |`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const artifacts = process.env['FIELDOPS_TEST_ARTIFACTS'];
  if (artifacts) {
    mkdirSync(artifacts, { recursive: true });
    writeFileSync(join(artifacts, 'kill-matrix.md'), `${lines.join('\n')}\n`);
  }
}
