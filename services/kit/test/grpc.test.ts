// The gRPC plumbing end to end: a real server on an ephemeral port with the generated crm definition,
// and a real client. The handlers are canned; what is under test is what travels between them.
import { TLSSocket } from 'node:tls';
import { jest } from '@jest/globals';
import { getChannelzHandlers, Metadata, status as GrpcStatus } from '@grpc/grpc-js';
import type { ServiceError } from '@grpc/grpc-js';
import { common, crm } from '@fieldops/proto';
import type { RequestContext } from '../src/context.ts';
import { AppError } from '../src/errors.ts';
import { callUnary, connectClient, RECEIVE_WINDOW_BYTES } from '../src/grpc/client.ts';
import { CONTEXT_METADATA_KEY, contextToMetadata } from '../src/grpc/metadata.ts';
import { bindService, startGrpcServer } from '../src/grpc/server.ts';
import type { CallContext, GrpcServer } from '../src/grpc/server.ts';
import { ERROR_METADATA_KEY, fromGrpcError, toGrpcError } from '../src/grpc/status.ts';
import { HealthRegistry, startOpsServer } from '../src/health.ts';
import { createLogger } from '../src/log.ts';
import { metricsText } from '../src/metrics.ts';

const logger = createLogger('kit-grpc-test', 'silent');

const ctx: RequestContext = {
  requestId: 'req_1',
  tenant: { id: 'ten_1', currency: 'EUR', defaultVertical: 'drone' },
  principal: { kind: 'token', tokenId: 'tok_1', role: 'Manager', memberId: 'mem_1' },
  idempotencyKey: 'op-42',
  agent: { runId: 'run_7', task: 'triage inbox', model: 'some-model', confirmedBy: 'mem_2' },
  dryRun: true,
  operation: 'listLeads',
};

const lead: crm.Lead = {
  id: 'lead_1',
  name: 'Ada',
  status: 'New',
  score: 40,
  etag: 'W/"1"',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
};

const SECRET = 'db password hunter2 at 10.0.0.5';

const seen: { ctx?: RequestContext; request?: crm.ListLeadsRequest; call?: CallContext } = {};
let slowAborted: Promise<unknown> = Promise.resolve();

const crmBinding = bindService(crm.CrmServiceService, {
  listLeads: async (request, call) => {
    seen.ctx = call.ctx;
    seen.request = request;
    seen.call = call;
    return { items: [lead], nextCursor: 'cur_2' };
  },
  getLead: async () => {
    throw new AppError('conflict', 'A New lead cannot move to Converted.', {
      legalTransitions: ['Contacted', 'Lost'],
      current: 'New',
    });
  },
  createLead: async () => {
    throw new Error(SECRET);
  },
  // Runs until the caller gives up, so the deadline (not the handler) ends the call.
  updateLead: (_request, call) => {
    slowAborted = new Promise((resolve) =>
      call.signal.addEventListener('abort', () => resolve(call.signal.reason), { once: true }),
    );
    return slowAborted.then(() => ({ lead }));
  },
  // Not async: a synchronous throw must be caught like a rejection.
  listCustomers: () => {
    throw new TypeError(SECRET);
  },
  // A value the encoder refuses: the failure is ours, and answered as internal.
  getCustomer: async () => ({ customer: { id: 'cus_1', name: 42 } }) as unknown as crm.CustomerDetail,
  createCustomer: async (request) => ({ customer: { id: 'cus_1', name: request.name } }) as crm.CustomerWrite,
  updateCustomer: async () => {
    throw new AppError('internal', 'The customer store is unreachable.');
  },
  // Not exercised here: the binding needs every RPC of the service.
  convertLead: async () => {
    throw new AppError('internal', 'Not exercised by this test.');
  },
  qualifyLead: async () => {
    throw new AppError('internal', 'Not exercised by this test.');
  },
});

let server: GrpcServer;
let client: crm.CrmServiceClient;

beforeAll(async () => {
  server = await startGrpcServer({ services: [crmBinding], logger, port: 0 });
  client = connectClient(crm.CrmServiceClient, server.address);
});

afterAll(async () => {
  client.close();
  await server.stop();
});

/** One of grpc-js's channelz handlers, called in-process as its service would call it. */
function channelz<T>(method: string, request: Record<string, string>): Promise<T> {
  type Handler = (call: { request: object }, done: (error: Error | null, reply: T) => void) => void;
  const handler = (getChannelzHandlers() as unknown as Record<string, Handler>)[method];
  if (!handler) throw new Error(`grpc-js has no channelz handler ${method}`);
  return new Promise((resolve, reject) => {
    handler({ request }, (error: Error | null, reply: T) => (error ? reject(error) : resolve(reply)));
  });
}

interface SocketRef {
  socket_id: number;
  name: string;
}

/** What the server may still send on each of its connections, as the client last advertised it. */
async function sendWindowsOf(port: number): Promise<number[]> {
  const { server: servers } = await channelz<{
    server: { ref: { server_id: number }; listen_socket: SocketRef[] }[];
  }>('GetServers', { start_server_id: '0' });
  const ours = servers.find((s) => s.listen_socket.some((socket) => socket.name.endsWith(`:${port}`)));
  if (!ours) throw new Error(`channelz knows no server listening on port ${port}`);
  const { socket_ref: sessions } = await channelz<{ socket_ref: SocketRef[] }>('GetServerSockets', {
    server_id: String(ours.ref.server_id),
    start_socket_id: '0',
  });
  const sockets = await Promise.all(
    sessions.map((ref) =>
      channelz<{ socket: { data: { remote_flow_control_window: { value: number } | null } } }>('GetSocket', {
        socket_id: String(ref.socket_id),
      }),
    ),
  );
  return sockets.map(({ socket }) => socket.data.remote_flow_control_window?.value ?? 0);
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

/** A call made with the raw generated client, to send metadata callUnary would never send. */
function rawListLeads(metadata: Metadata): Promise<AppError> {
  return new Promise((resolve, reject) => {
    client.listLeads({}, metadata, { deadline: Date.now() + 5000 }, (error) => {
      if (error) resolve(fromGrpcError(error));
      else reject(new Error('expected the call to fail'));
    });
  });
}

describe('gRPC server and client', () => {
  it('serves on an ephemeral port and gives a dialable address', () => {
    expect(server.port).toBeGreaterThan(0);
    expect(server.address).toBe(`127.0.0.1:${server.port}`);
  });

  it('delivers the request context intact, with the request and a deadline', async () => {
    const page = await callUnary(client, 'listLeads', { q: 'ada', status: 'New' }, ctx);
    expect(page.items).toEqual([lead]);
    expect(page.nextCursor).toBe('cur_2');
    expect(seen.ctx).toEqual({ ...ctx, grant: expect.objectContaining({ signer: '' }) });
    expect(seen.request).toMatchObject({ q: 'ada', status: 'New' });
    expect(seen.call?.deadline).toBeInstanceOf(Date);
    expect(seen.call?.signal.aborted).toBe(false);
  });

  it("reads the caller's certificate once per connection, not on every call", async () => {
    // The connection is open from the calls above; a session's peer certificate cannot change.
    await callUnary(client, 'listLeads', {}, ctx);
    const kinds = seen.call?.caller;
    expect(kinds?.length).toBeGreaterThan(0);
    const reads = jest.spyOn(TLSSocket.prototype, 'getPeerCertificate');
    try {
      for (let i = 0; i < 20; i++) await callUnary(client, 'listLeads', {}, ctx);
      expect(reads).not.toHaveBeenCalled();
      expect(seen.call?.caller).toEqual(kinds);
    } finally {
      reads.mockRestore();
    }
    // A new connection is read again.
    const other = connectClient(crm.CrmServiceClient, server.address);
    const fresh = jest.spyOn(TLSSocket.prototype, 'getPeerCertificate');
    try {
      await callUnary(other, 'listLeads', {}, ctx);
      expect(fresh).toHaveBeenCalled();
      expect(seen.call?.caller).toEqual(kinds);
    } finally {
      fresh.mockRestore();
      other.close();
    }
  });

  it('carries an AppError across with its code, message and extras', async () => {
    const error = await rejection(callUnary(client, 'getLead', { id: 'lead_1' }, ctx));
    expect(error.code).toBe('conflict');
    expect(error.message).toBe('A New lead cannot move to Converted.');
    expect(error.extras).toEqual({ legalTransitions: ['Contacted', 'Lost'], current: 'New' });
    expect(error.toBody()).toMatchObject({ ok: false, code: 'conflict', retryable: true, current: 'New' });
  });

  it('answers a plain Error as internal without its message', async () => {
    const error = await rejection(callUnary(client, 'createLead', { name: 'Ada' }, ctx));
    expect(error.code).toBe('internal');
    expect(error.message).not.toContain('hunter2');
    expect(JSON.stringify(error.toBody())).not.toContain('hunter2');
    expect(error.extras).toEqual({});
  });

  it('answers a synchronous throw as internal', async () => {
    const error = await rejection(callUnary(client, 'listCustomers', {}, ctx));
    expect(error.code).toBe('internal');
    expect(error.message).not.toContain('hunter2');
  });

  it('answers an unencodable response as internal', async () => {
    const error = await rejection(callUnary(client, 'getCustomer', { id: 'cus_1' }, ctx));
    expect(error.code).toBe('internal');
  });

  it("carries a service's own internal AppError with its message", async () => {
    const error = await rejection(callUnary(client, 'updateCustomer', { id: 'cus_1', ifMatch: '*' }, ctx));
    expect(error.code).toBe('internal');
    expect(error.message).toBe('The customer store is unreachable.');
  });

  it('gives up at the deadline as unavailable and aborts the handler', async () => {
    const started = Date.now();
    const error = await rejection(
      callUnary(client, 'updateLead', { id: 'lead_1', ifMatch: '*' }, ctx, { timeoutMs: 150 }),
    );
    expect(error.code).toBe('unavailable');
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/retry/i);
    expect(Date.now() - started).toBeLessThan(2000);
    await expect(slowAborted).resolves.toMatchObject({ code: 'unavailable' });
  });

  it('honours an outer deadline earlier than the timeout', async () => {
    const deadline = new Date(Date.now() + 100);
    const error = await rejection(
      callUnary(client, 'updateLead', { id: 'lead_1', ifMatch: '*' }, ctx, { timeoutMs: 10_000, deadline }),
    );
    expect(error.code).toBe('unavailable');
  });

  it('cancels through an AbortSignal', async () => {
    const controller = new AbortController();
    const pending = callUnary(client, 'updateLead', { id: 'lead_1', ifMatch: '*' }, ctx, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 50);
    expect((await rejection(pending)).code).toBe('unavailable');
    const already = await rejection(callUnary(client, 'listLeads', {}, ctx, { signal: controller.signal }));
    expect(already.code).toBe('unavailable');
  });

  it('refuses a call without a context as invalid_body', async () => {
    const error = await rawListLeads(new Metadata());
    expect(error.code).toBe('invalid_body');
    expect(error.message).toMatch(/context/);
  });

  it('refuses a garbled or tenant-less context as invalid_body', async () => {
    const garbled = new Metadata();
    garbled.set(CONTEXT_METADATA_KEY, Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f]));
    expect((await rawListLeads(garbled)).code).toBe('invalid_body');
    const tenantless = contextToMetadata({ ...ctx, tenant: undefined });
    expect((await rawListLeads(tenantless)).code).toBe('invalid_body');
  });

  it("opens its connections with a receive window of a whole message, not HTTP/2's 64 KB", async () => {
    // A fresh server, so the connection counted is this client's alone.
    const roomy = await startGrpcServer({ services: [crmBinding], logger });
    const roomyClient = connectClient(crm.CrmServiceClient, roomy.address);
    try {
      await callUnary(roomyClient, 'listLeads', {}, ctx);
      const windows = await sendWindowsOf(roomy.port);
      expect(windows).toHaveLength(1);
      // Less what the reply has used and the client not yet handed back, which is a few hundred bytes.
      expect(windows[0]).toBeGreaterThan(RECEIVE_WINDOW_BYTES - 64 * 1024);
    } finally {
      roomyClient.close();
      await roomy.stop();
    }
  });

  it('keeps serving after handlers throw', async () => {
    await rejection(callUnary(client, 'createLead', { name: 'Ada' }, ctx));
    await rejection(callUnary(client, 'listCustomers', {}, ctx));
    const pages = await Promise.all([1, 2, 3].map(() => callUnary(client, 'listLeads', {}, ctx)));
    expect(pages.map((page) => page.items.length)).toEqual([1, 1, 1]);
  });

  it('records a latency histogram per method and code', async () => {
    const text = await metricsText();
    expect(text).toContain(
      'grpc_server_handling_seconds_count{method="/fieldops.crm.v1.CrmService/GetLead",code="conflict"}',
    );
    expect(text).toMatch(/grpc_server_handling_seconds_count\{method="[^"]+ListLeads",code="ok"\} [1-9]/);
  });

  it('answers unavailable once the server is stopped', async () => {
    const doomed = await startGrpcServer({ services: [crmBinding], logger });
    const doomedClient = connectClient(crm.CrmServiceClient, doomed.address);
    await callUnary(doomedClient, 'listLeads', {}, ctx);
    await doomed.stop();
    const error = await rejection(callUnary(doomedClient, 'listLeads', {}, ctx, { timeoutMs: 2000 }));
    expect(error.code).toBe('unavailable');
    doomedClient.close();
    const closed = await rejection(callUnary(doomedClient, 'listLeads', {}, ctx));
    expect(closed.code).toBe('unavailable');
  });

  it('refuses to start with a method left unhandled or a handler that matches no method', async () => {
    const listLeads = async () => ({ items: [], nextCursor: '' });
    await expect(
      startGrpcServer({ services: [{ definition: crm.CrmServiceService, handlers: { listLeads } }], logger }),
    ).rejects.toThrow(/No handler/);
    const extra = { ...crmBinding.handlers, deleteLead: listLeads };
    await expect(
      startGrpcServer({ services: [{ definition: crm.CrmServiceService, handlers: extra }], logger }),
    ).rejects.toThrow(/matches no method/);
  });
});

describe('status mapping without a detail', () => {
  const bare = (code: GrpcStatus, details = SECRET): ServiceError =>
    Object.assign(new Error(details), { code, details, metadata: new Metadata() });

  it.each([
    [GrpcStatus.UNAVAILABLE, 'unavailable'],
    [GrpcStatus.DEADLINE_EXCEEDED, 'unavailable'],
    [GrpcStatus.CANCELLED, 'unavailable'],
    [GrpcStatus.RESOURCE_EXHAUSTED, 'unavailable'],
    [GrpcStatus.NOT_FOUND, 'not_found'],
    [GrpcStatus.INVALID_ARGUMENT, 'invalid_body'],
    [GrpcStatus.ABORTED, 'conflict'],
    [GrpcStatus.INTERNAL, 'internal'],
    [GrpcStatus.UNKNOWN, 'internal'],
    [GrpcStatus.UNIMPLEMENTED, 'internal'],
    [GrpcStatus.PERMISSION_DENIED, 'internal'],
    [GrpcStatus.UNAUTHENTICATED, 'internal'],
    [GrpcStatus.FAILED_PRECONDITION, 'internal'],
    [GrpcStatus.DATA_LOSS, 'internal'],
    [GrpcStatus.OK, 'internal'],
  ])('status %s becomes %s, leaking nothing and keeping the cause', (grpcCode, expected) => {
    const original = bare(grpcCode);
    const error = fromGrpcError(original);
    expect(error.code).toBe(expected);
    expect(error.message).not.toContain('hunter2');
    expect(error.cause).toBe(original);
    if (expected === 'unavailable') expect(error.message).toMatch(/retry/i);
  });

  it('treats a status outside the enum as internal', () => {
    expect(fromGrpcError(bare(99 as GrpcStatus)).code).toBe('internal');
  });

  it('falls back to the status when the detail is garbled or names an unknown code', () => {
    const garbled = bare(GrpcStatus.NOT_FOUND);
    garbled.metadata.set(ERROR_METADATA_KEY, Buffer.from([0xff, 0xff, 0xff]));
    expect(fromGrpcError(garbled).code).toBe('not_found');
    const foreign = bare(GrpcStatus.ABORTED);
    const detail = { code: 'teapot', message: 'short and stout', extrasJson: '{}' };
    foreign.metadata.set(ERROR_METADATA_KEY, Buffer.from(common.ErrorDetail.encode(detail).finish()));
    expect(fromGrpcError(foreign)).toMatchObject({ code: 'conflict' });
  });

  it('round-trips an AppError through toGrpcError', () => {
    const original = new AppError('rate_limited', 'Too many writes.', { bucket: 'writes', retryAfter: 12 });
    const wire = toGrpcError(original);
    expect(wire.code).toBe(GrpcStatus.RESOURCE_EXHAUSTED);
    const back = fromGrpcError(wire);
    expect(back).toMatchObject({ code: 'rate_limited', message: 'Too many writes.' });
    expect(back.extras).toEqual({ bucket: 'writes', retryAfter: 12 });
  });

  it('wraps a non-gRPC throwable as internal', () => {
    expect(fromGrpcError('boom').code).toBe('internal');
  });
});

describe('ops server', () => {
  it('answers liveness, readiness (503 until ready) and metrics', async () => {
    const registry = new HealthRegistry();
    let storeReady = false;
    registry.register('store', () => storeReady);
    registry.register('log', async () => true);
    const ops = await startOpsServer({ host: '127.0.0.1', port: 0, logger, registry });
    try {
      const base = `http://127.0.0.1:${ops.port}`;
      expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ ok: true });
      const notReady = await fetch(`${base}/readyz`);
      expect(notReady.status).toBe(503);
      expect(await notReady.json()).toEqual({ ok: false, checks: { store: false, log: true } });
      storeReady = true;
      // Reports are cached for a second (health.ts); a check whose state changed says so.
      registry.invalidate();
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      const metrics = await fetch(`${base}/metrics`);
      expect(metrics.headers.get('content-type')).toMatch(/text\/plain/);
      expect(await metrics.text()).toContain('process_cpu_user_seconds_total');
      expect((await fetch(`${base}/nope`)).status).toBe(404);
    } finally {
      await ops.stop();
    }
  });

  it('counts a throwing check as not ready', async () => {
    const registry = new HealthRegistry();
    registry.register('broken', () => {
      throw new Error('down');
    });
    expect(await registry.report()).toEqual({ ok: false, checks: { broken: false } });
  });
});

// Compile-time checks only (never called): `npm run typecheck` fails if the types loosen.
export function typeChecks(): void {
  // @ts-expect-error 'close' is not a unary method of the client.
  void callUnary(client, 'close', {}, ctx);
  // @ts-expect-error the request type follows the method.
  void callUnary(client, 'createLead', { nam: 'Ada' }, ctx);
  const typed: Promise<crm.LeadPage> = callUnary(client, 'listLeads', {}, ctx);
  void typed;
  // @ts-expect-error every method of the definition must be handled.
  bindService(crm.CrmServiceService, { listLeads: async () => ({ items: [], nextCursor: '' }) });
}
