// The servers process of `npm run bench`, started by scripts/bench.ts with its stdout going to a
// log file (the platform logs one line per request at the product's default level). In one process,
// like `npm start`:
//   - the whole platform (startPlatform) with rate limits raised far above what the bench sends;
//   - a bare node:http server answering the bytes of a real GET /api/v1/leads page of 50;
//   - a plain Express app whose routes each make one gRPC call to the platform's crm service
//     (no authentication, validation, rate limiting, idempotency lock or request logging).
// The reader tenant holds BENCH_SEED_LEADS leads (default 20,000), cloned from one written through
// the API (scale.ts says how). With BENCH_SCALE_LIST set, the process serves the scale series of
// that list instead: one tenant per size in BENCH_SCALE_SIZES, each read through the pipeline.
// It reports the targets over IPC and stays up until told to stop.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  constants,
  PerformanceObserver,
  type NodeGCPerformanceDetail,
  type PerformanceEntry,
} from 'node:perf_hooks';
import { type RequestContext, loadConfig, type Config, createLogger } from '@fieldops/kit';
import { callUnary, connectClient } from '@fieldops/kit/grpc';
import { startPlatform, type RunningPlatform } from '@fieldops/platform/platform';
import { crm } from '@fieldops/proto';
import express from 'express';
import { profileFile } from './profile.ts';
import { measurementsRpc } from '../../test/support/measurements.ts';
import { cloneRecords, scaleList, type ScaleList, type TenantApi } from './scale.ts';
import { call, createTenant, tenantApi, type Tenant } from './tenants.ts';
import {
  isLoadMessage,
  type LoadMessage,
  type ServersMessage,
  type TargetId,
  type TargetSpec,
} from './protocol.ts';

const SEED_LEADS = Number(process.env.BENCH_SEED_LEADS ?? 20_000);
const SETTLE_SEED_MS = 60_000;
const PAGE = 50;
// Far above what 10 connections can send in a run: the bench measures the pipeline, not 429s.
const NO_LIMIT = '1000000';

function send(message: ServersMessage): void {
  process.send?.(message);
}

/** Waits for the asynchronous part of each tenant's template write (audit entry, packaged export). */
async function templatesSettled(list: ScaleList, apis: TenantApi[]): Promise<void> {
  const deadline = Date.now() + SETTLE_SEED_MS;
  for (const api of apis) {
    while (list.settled && !(await list.settled(api))) {
      if (Date.now() > deadline) throw new Error(`bench seeding: ${list.id} did not settle in time`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * Writes one record of `list` through the API in each tenant, stops the platform, clones the
 * record up to each tenant's size in the service's store, and starts the platform again.
 */
async function seedByCloning(
  platform: RunningPlatform,
  config: Config,
  list: ScaleList,
  tenants: { tenant: Tenant; size: number }[],
): Promise<{ platform: RunningPlatform; paths: string[] }> {
  const apis = tenants.map(({ tenant }) => tenantApi(platform, tenant));
  const measurements = measurementsRpc({ serviceAddress: (service) => platform.services[service] });
  const paths: string[] = [];
  try {
    for (const [i, api] of apis.entries()) {
      const tenantId = tenants[i]?.tenant.tenant.id ?? '';
      paths.push(await list.prepare({ api, tenantId, measurements }));
    }
  } finally {
    measurements.close();
  }
  await templatesSettled(list, apis);
  await platform.stop();
  await cloneRecords(config, list, new Map(tenants.map(({ tenant, size }) => [tenant.tenant.id, size])));
  return { platform: await startPlatform(config, createLogger('fieldops', config.logLevel)), paths };
}

/** The context the gateway would build for a Manager token of `tenant` (see buildContext). */
function contextFor(tenant: Tenant, operation: string): RequestContext {
  return {
    requestId: '',
    tenant: { ...tenant.tenant },
    principal: { kind: 'token', tokenId: tenant.tokenId, role: 'Manager', memberId: '' },
    idempotencyKey: '',
    agent: { runId: '', task: '', model: '', confirmedBy: '' },
    dryRun: false,
    operation,
  };
}

function listen(handler: RequestListener): Promise<{ server: Server; url: string }> {
  return new Promise((resolve, reject) => {
    const server = createServer(handler);
    server.keepAliveTimeout = 65_000;
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, url: `http://127.0.0.1:${port}` });
    });
  });
}

// Quiet = at most QUIET_CPU_MS of CPU in a QUIET_WINDOW_MS window (relay polls and fsync timers).
const QUIET_WINDOW_MS = 100;
const QUIET_CPU_MS = 5;
const SETTLE_LIMIT_MS = 10_000;

const cpuMicros = (): number => {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
};

const mainThreadMicros = (): number => {
  const usage = process.threadCpuUsage();
  return usage.user + usage.system;
};

/**
 * V8's collections in this process so far. A full collection marks the whole heap (the seeded
 * tenant's records included), mostly on V8's helper threads: how often a row brings one on is much
 * of its CPU outside the main thread, and, unlike req/s, does not depend on where among the
 * segments a collection happens to land (docs/performance.md, "A page's bytes, copied once less").
 */
let fullCollections = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const { kind } = (entry as PerformanceEntry & { detail: NodeGCPerformanceDetail }).detail;
    if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) fullCollections++;
  }
}).observe({ entryTypes: ['gc'] });

/**
 * Waits until this process stops working after a segment of load: a keyed write leaves work behind
 * (outbox relay, audit consumer, journal fsync, garbage collection), and whichever target ran next
 * would otherwise pay for it. Reports the CPU used so far, so the load process can charge each
 * segment with its whole cost, deferred work included.
 */
async function settle(): Promise<{
  cpuMicros: number;
  mainMicros: number;
  fullCollections: number;
  waitedMs: number;
}> {
  const started = Date.now();
  let before = cpuMicros();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, QUIET_WINDOW_MS));
    const now = cpuMicros();
    if (now - before <= QUIET_CPU_MS * 1000 || Date.now() - started > SETTLE_LIMIT_MS) {
      const waitedMs = Date.now() - started;
      return { cpuMicros: now, mainMicros: mainThreadMicros(), fullCollections, waitedMs };
    }
    before = now;
  }
}

/** Under --profile: a CPU profile of each segment, from its quiet start to its quiet end. */
async function segmentProfiler(dir: string | undefined) {
  if (!dir) return { start: async () => undefined, stop: async () => undefined };
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  let file: string | undefined;
  return {
    start: async (target: TargetId, label: string) => {
      file = join(dir, profileFile(target, label));
      await session.post('Profiler.start');
    },
    stop: async () => {
      if (!file) return;
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      file = undefined;
    },
  };
}

const close = (server: Server): Promise<void> =>
  new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/** node:http answering the captured page bytes: the ceiling every other row is a ratio of. */
function bareHandler(page: Buffer): RequestListener {
  const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': page.length };
  return (req, res) => {
    req.resume();
    res.writeHead(200, headers);
    res.end(page);
  };
}

/** Express with one route per pipeline row, each a single plain gRPC call to crm. */
function plainApp(client: crm.CrmServiceClient, readCtx: RequestContext, writeCtx: () => RequestContext) {
  const app = express();
  // The gateway's own app settings, so the plain hop is not charged for Express's default ETag hash.
  app.disable('x-powered-by');
  app.set('etag', false);
  let requests = 0;
  app.get('/leads', async (_req, res) => {
    const ctx = { ...readCtx, requestId: `plain_${++requests}` };
    const page = await callUnary(client, 'listLeads', { page: { cursor: '', limit: PAGE } }, ctx);
    res.json({ ok: true, items: page.items, nextCursor: page.nextCursor || null, limit: PAGE });
  });
  app.post('/leads', express.json(), async (req, res) => {
    const ctx = {
      ...writeCtx(),
      requestId: `plain_${++requests}`,
      idempotencyKey: req.get('idempotency-key') ?? '',
    };
    const write = await callUnary(client, 'createLead', req.body as crm.CreateLeadRequest, ctx);
    res.status(201).json({ ok: true, lead: write.lead });
  });
  return app;
}

function benchConfig(): Config {
  const dataDir = process.env.BENCH_DATA_DIR;
  if (!dataDir) throw new Error('BENCH_DATA_DIR is not set; run this through `npm run bench`');
  return loadConfig(
    {
      PORT: '0',
      HOST: '127.0.0.1',
      FIELDOPS_DATA_DIR: dataDir,
      FIELDOPS_ADMIN_SECRET: randomBytes(24).toString('hex'),
      FIELDOPS_RATE_READS_PER_MIN: NO_LIMIT,
      FIELDOPS_RATE_WRITES_PER_MIN: NO_LIMIT,
      // Every finalize of the capture-e2e row queues a compute run.
      FIELDOPS_BUDGET_COMPUTE: NO_LIMIT,
      // Left to the product defaults unless the caller sets them.
      LOG_LEVEL: process.env.LOG_LEVEL,
      FIELDOPS_FSYNC: process.env.FIELDOPS_FSYNC,
      // The embedded event log and in-memory fast state unless set; `npm run bench:cluster` sets them
      // to the cluster's broker and Redis, so both sides of its comparison run on the same adapters.
      KAFKA_BROKERS: process.env.KAFKA_BROKERS,
      KAFKA_NAMESPACE: process.env.KAFKA_NAMESPACE,
      REDIS_URL: process.env.REDIS_URL,
    },
    dataDir,
  );
}

const bearer = (tenant: Tenant) => ({ authorization: `Bearer ${tenant.token}` });

/** Answers the load process (prepare, settle, stop) until it says stop. */
async function serve(hooks: {
  headersOf: (id: TargetId) => Record<string, string>;
  prepare: (id: TargetId, freshTenant: boolean) => Promise<void>;
  stop: () => Promise<void>;
}): Promise<void> {
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await hooks.stop();
    process.exit(0);
  };
  const profiler = await segmentProfiler(process.env.BENCH_PROFILE_DIR);
  const answer = async (message: LoadMessage): Promise<void> => {
    if (message.type === 'stop') return stop();
    if (message.type === 'prepare') await hooks.prepare(message.target, message.freshTenant);
    const settled = await settle();
    if (message.type === 'prepare') await profiler.start(message.target, message.label);
    else await profiler.stop();
    send({ type: 'settled', ...settled, headers: hooks.headersOf(message.target) });
  };
  process.on('message', (message: unknown) => {
    if (isLoadMessage(message)) void answer(message);
  });
  // The load process went away (Ctrl-C, crash): do not outlive it.
  process.on('disconnect', () => void stop());
}

/** The scale series of one list: a tenant per size, each page read through the full pipeline. */
async function serveScale(config: Config, list: ScaleList, sizes: number[]): Promise<void> {
  let platform = await startPlatform(config, createLogger('fieldops', config.logLevel));
  const tenants = [];
  for (const size of sizes)
    tenants.push({ tenant: await createTenant(platform, `Bench ${list.id} ${size}`), size });
  const seeded = await seedByCloning(platform, config, list, tenants);
  platform = seeded.platform;
  const targets: TargetSpec[] = tenants.map(({ tenant, size }, i) => ({
    id: `${list.id}-${size}`,
    label: `GET ${(seeded.paths[i] ?? '').split('?')[0] ?? ''} (${size.toLocaleString('en')})`,
    url: `${platform.url}/api/v1${seeded.paths[i] ?? ''}`,
    method: 'GET',
    headers: bearer(tenant),
    keyedPost: false,
  }));
  const first = await call('GET', targets[0]?.url ?? '', tenants[0]?.tenant.token ?? '');
  if (first.status !== 200)
    throw new Error(`GET ${targets[0]?.url ?? ''}: ${first.status} ${first.bytes.toString()}`);
  const running = platform;
  await serve({
    headersOf: (id) => targets.find((target) => target.id === id)?.headers ?? {},
    prepare: async () => undefined,
    stop: () => running.stop(),
  });
  send({
    type: 'ready',
    targets,
    pageBytes: first.bytes.length,
    seededLeads: 0,
    scale: { list: list.id, sizes },
    logLevel: config.logLevel,
    crmAddress: platform.services.crm,
    capture: { url: platform.url, token: '' },
  });
}

async function main(): Promise<void> {
  const config = benchConfig();
  const scale = process.env.BENCH_SCALE_LIST;
  if (scale) {
    const sizes = (process.env.BENCH_SCALE_SIZES ?? '1000,10000,100000').split(',').map(Number);
    return serveScale(config, scaleList(scale), sizes);
  }
  let platform = await startPlatform(config, createLogger('fieldops', config.logLevel));
  const reader = await createTenant(platform, 'Bench reads');
  platform = (
    await seedByCloning(platform, config, scaleList('leads'), [{ tenant: reader, size: SEED_LEADS }])
  ).platform;
  const pipelineGet = `${platform.url}/api/v1/leads?limit=${PAGE}`;
  const captured = await call('GET', pipelineGet, reader.token);
  const items = captured.json.items;
  if (captured.status !== 200 || !Array.isArray(items) || items.length !== Math.min(PAGE, SEED_LEADS)) {
    throw new Error(`unexpected GET /api/v1/leads answer: ${captured.status}`);
  }
  const running = platform;

  // The keyed POST rows write into tenants of their own, replaced by a fresh one when the load
  // process asks (see `prepare` below and docs/performance.md).
  let writers = 0;
  const newWriter = () => createTenant(running, `Bench writes ${++writers}`);
  const capturer = await createTenant(platform, 'Bench captures');
  let plainWriter = await newWriter();
  let pipelineWriter = await newWriter();

  const crmAddress = platform.services.crm;
  const client = connectClient(crm.CrmServiceClient, crmAddress, { deadlineMs: config.grpcDeadlineMs });
  const bare = await listen(bareHandler(captured.bytes));
  const plain = await listen(
    plainApp(client, contextFor(reader, 'listLeads'), () => contextFor(plainWriter, 'createLead')),
  );
  // The plain hop decodes protobuf items and res.json's them; the pipeline splices crm's JSON
  // bytes. The comparison is fair only if the client receives the very same bytes from both, but
  // for the MAC the pipeline seals its next cursor with (`.<22 characters>`, pipeline/cursor-seal.ts):
  // that sealing is the pipeline's own work, which the plain hop does not do.
  const plainPage = await call('GET', `${plain.url}/leads`, reader.token);
  if (!plainPage.bytes.equals(withoutCursorSeal(captured.bytes))) {
    throw new Error('the plain hop and the pipeline answer GET /leads with different bytes');
  }

  const targets: TargetSpec[] = [
    { id: 'bare', label: 'bare node:http', url: bare.url, method: 'GET', headers: {}, keyedPost: false },
    {
      id: 'plain-get',
      label: 'plain Express + gRPC listLeads',
      url: `${plain.url}/leads`,
      method: 'GET',
      headers: {},
      keyedPost: false,
    },
    {
      id: 'pipeline-get',
      label: 'pipeline GET /api/v1/leads',
      url: pipelineGet,
      method: 'GET',
      headers: bearer(reader),
      keyedPost: false,
      baseline: 'plain-get',
      // A page read through the pipeline at least as fast as the plain hop for the same bytes.
      minRatio: 1,
    },
    {
      id: 'plain-post',
      label: 'plain Express + gRPC createLead',
      url: `${plain.url}/leads`,
      method: 'POST',
      headers: {},
      keyedPost: true,
    },
    {
      id: 'pipeline-post',
      label: 'pipeline POST /api/v1/leads',
      url: `${platform.url}/api/v1/leads`,
      method: 'POST',
      headers: bearer(pipelineWriter),
      keyedPost: true,
      baseline: 'plain-post',
      minRatio: 0.8,
    },
  ];
  await serve({
    headersOf: (id) =>
      id === 'pipeline-post' ? bearer(pipelineWriter) : (targets.find((t) => t.id === id)?.headers ?? {}),
    /** Moves a keyed POST row to a fresh tenant, so that every segment starts from the same state. */
    prepare: async (id, freshTenant) => {
      if (!freshTenant) return;
      if (id === 'plain-post') plainWriter = await newWriter();
      if (id === 'pipeline-post') pipelineWriter = await newWriter();
    },
    stop: async () => {
      await Promise.all([close(bare.server), close(plain.server)]);
      client.close();
      await running.stop();
    },
  });
  send({
    type: 'ready',
    targets,
    pageBytes: captured.bytes.length,
    seededLeads: SEED_LEADS,
    logLevel: config.logLevel,
    crmAddress,
    capture: { url: platform.url, token: capturer.token },
  });
}

main().catch((err: unknown) => {
  send({ type: 'failed', error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  process.exitCode = 1;
  setTimeout(() => process.exit(1), 100).unref();
});

/** A page's bytes with its sealed next cursor's MAC taken off: the plain hop's cursor. */
function withoutCursorSeal(page: Buffer): Buffer {
  return Buffer.from(page.toString('utf8').replace(/("nextCursor":"[\w-]+)\.[\w-]+"/, '$1"'), 'utf8');
}
