// A write that outlives its gRPC deadline: the real crm commits the lead, but its answer reaches
// the gateway only after the call's deadline (a delaying TCP proxy sits between the gateway's crm
// client and crm). The client must not read that as a plain "try again": it gets the spec's
// `unavailable` envelope (503, retryable) with `outcomeUnknown: true` and a sentence to retry with
// the same Idempotency-Key, and that retry gives one lead, not two.
//
// The platform runs as tests run it; a second gateway (its own data directory and identity, the
// platform's services) is started with a short deadline and its crm calls through the proxy.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectServiceClients, type ServiceAddresses } from '@fieldops/gateway';
import { startGateway } from '@fieldops/gateway/start';
import { createLogger, loadConfig } from '@fieldops/kit';
import { openEventLog } from '@fieldops/kit/adapters';
import type { EventLog } from '@fieldops/kit/events';
import { setProcessGrpcDeadline } from '@fieldops/kit/grpc';
import { ShutdownStack } from '@fieldops/kit/process';
import {
  eventually,
  httpClient,
  startTestPlatform,
  type Body,
  type Client,
  type TestPlatform,
} from './support/harness.ts';

const DEADLINE_MS = 1_000;
/** Well past the deadline, so the answer always comes late, however loaded the machine. */
const LATE_BY_MS = 4_000;

/** Forwards TCP to `target`; while `slow`, the answers (target → client) are held back LATE_BY_MS. */
async function delayingProxy(
  target: string,
): Promise<{ address: string; slow: boolean; close(): Promise<void> }> {
  const [host = '127.0.0.1', port = '0'] = target.split(':');
  const sockets = new Set<Socket>();
  const state = { slow: false };
  const server: Server = createServer((client) => {
    const upstream = connect(Number(port), host);
    sockets.add(client).add(upstream);
    client.on('data', (chunk) => upstream.write(chunk));
    // Bytes keep their order (HTTP/2 frames must): each chunk leaves at its own release time, never
    // before the one ahead of it.
    let released = Promise.resolve();
    let lastAt = 0;
    upstream.on('data', (chunk: Buffer) => {
      const at = Math.max(lastAt, Date.now() + (state.slow ? LATE_BY_MS : 0));
      lastAt = at;
      released = released
        .then(() => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())).unref()))
        .then(() => {
          if (!client.destroyed) client.write(chunk);
        });
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: bound } = server.address() as { port: number };
  return {
    address: `127.0.0.1:${bound}`,
    get slow() {
      return state.slow;
    },
    set slow(value: boolean) {
      state.slow = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('a write that outlives its gRPC deadline', () => {
  let platform: TestPlatform;
  let proxy: Awaited<ReturnType<typeof delayingProxy>>;
  let dir: string;
  let log: EventLog;
  const shutdown = new ShutdownStack(createLogger('test', 'silent'));
  let api: Client;

  beforeAll(async () => {
    platform = await startTestPlatform();
    proxy = await delayingProxy(platform.serviceAddress('crm'));
    dir = mkdtempSync(join(tmpdir(), 'fieldops-write-deadline-'));
    const env = {
      PORT: '0',
      FIELDOPS_DATA_DIR: dir,
      KAFKA_BROKERS: '',
      LOG_LEVEL: 'silent',
      FIELDOPS_MONGODB_OPERATION_TIMEOUT_MS: String(DEADLINE_MS / 2),
      FIELDOPS_GRPC_DEADLINE_MS: String(DEADLINE_MS),
    };
    const config = loadConfig(env, dir);
    log = await openEventLog(config);
    const addresses = Object.fromEntries(
      (['crm', 'audit', 'projects', 'webhooks', 'capture', 'measurements', 'exports'] as const).map(
        (service) => [service, platform.serviceAddress(service)],
      ),
    ) as unknown as ServiceAddresses;
    // Only this gateway's clients get the short deadline; the platform's keep theirs.
    setProcessGrpcDeadline(DEADLINE_MS);
    const clients = connectServiceClients({ ...addresses, crm: proxy.address });
    setProcessGrpcDeadline(loadConfig({}).grpcDeadlineMs);
    shutdown.push(async () => clients.close());
    const gateway = await startGateway({
      config,
      log,
      clients,
      adminSecret: 'a-test-admin-secret-of-32-characters',
      logger: createLogger('gateway', 'silent'),
      shutdown,
    });
    const url = `http://127.0.0.1:${gateway.port}`;
    const admin = httpClient<string>(`${url}/admin/v1`, 'a-test-admin-secret-of-32-characters');
    const tenant = await admin.post('/tenants', { name: 'Deadline Co' });
    const tenantId = (tenant.body.tenant as { id: string }).id;
    const token = await admin.post(`/tenants/${tenantId}/tokens`, { role: 'Manager' });
    api = httpClient(`${url}/api/v1`, (token.body.token as { secret: string }).secret);
  }, 120_000);

  afterAll(async () => {
    await shutdown.unwind();
    await log?.close();
    await proxy?.close();
    await platform?.stop();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('answers 503 unavailable with outcomeUnknown, and a keyed retry makes one record', async () => {
    // The connection to crm is up before answers slow down: the write itself reaches crm.
    expect((await api.get('/leads')).status).toBe(200);
    proxy.slow = true;
    const key = { 'idempotency-key': 'deadline-lead-1' };
    const late = await api.post('/leads', { name: 'Deadline Lead' }, key);
    expect(late.status).toBe(503);
    expect(late.body).toMatchObject({
      ok: false,
      code: 'unavailable',
      retryable: true,
      outcomeUnknown: true,
    });
    expect(late.body.error).toContain('Retry with the same Idempotency-Key');

    proxy.slow = false;
    // As a client does: the same request, with the same key, until it is answered (the late answer
    // of the first call still has to drain through the proxy before crm answers in time again).
    const retried = await eventually(async () => {
      const reply = await api.post('/leads', { name: 'Deadline Lead' }, key);
      return reply.status === 503 ? undefined : reply;
    }, 30_000);
    expect([200, 201]).toContain(retried.status);
    const listed = await api.get('/leads?limit=100');
    const named = (listed.body.items as Body[]).filter((lead) => lead.name === 'Deadline Lead');
    expect(named).toHaveLength(1);
    expect(named[0]?.id).toBe((retried.body.lead as Body).id);
  }, 60_000);

  it('leaves a read that runs out of time a plain unavailable', async () => {
    proxy.slow = true;
    const read = await api.get('/leads');
    proxy.slow = false;
    await eventually(async () => ((await api.get('/leads')).status === 200 ? true : undefined), 30_000);
    expect(read.status).toBe(503);
    expect(read.body).toMatchObject({ code: 'unavailable', retryable: true });
    expect(read.body.outcomeUnknown).toBeUndefined();
  }, 60_000);
});
