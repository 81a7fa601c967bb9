// Webhook fairness (issue 32): a target that drips its answer's header a byte at a time holds a
// delivery slot only until the attempt's total deadline, and while one tenant's targets hold their
// share of the slots, another tenant's deliveries keep flowing. An answer whose header is larger
// than the limit is refused.
//
// The dripper is a raw TCP server on 127.0.0.1: it reads the request, sends a status line, then
// one header byte every DRIP_MS for ever, so only a total deadline ends the attempt (an idle
// timeout never fires). Nothing here waits for time to pass: the test waits for states (slots
// taken, a delivery arrived, an attempt recorded) and compares the order they happened in.
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventually, startTestPlatform, type Client, type TestPlatform } from './support/harness.ts';
import { startReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

const DEADLINE_MS = 8000;
const DRIP_MS = 100;
/** As many subscriptions as the dispatcher has slots by default: without fairness they would take all. */
const SLOW_SUBSCRIPTIONS = 8;
const FAST_DISPATCH = {
  FIELDOPS_WEBHOOK_POLL_MS: '50',
  FIELDOPS_WEBHOOK_TIMEOUT_MS: String(DEADLINE_MS),
  // A cut-off attempt is not retried during the test.
  FIELDOPS_WEBHOOK_RETRY_DELAYS_MS: '3600000',
};
const WAIT_MS = 60_000;
// The first test waits for the deadline itself, then for a recorded attempt: more than jest's 30 s.

interface Dripper {
  url(path: string): string;
  /** Connections open now. */
  open(): number;
  /** When each connection was closed (by the dispatcher: the dripper never ends one). */
  closedAt: number[];
  close(): Promise<void>;
}

async function startDripper(): Promise<Dripper> {
  const sockets = new Set<Socket>();
  const closedAt: number[] = [];
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    let timer: NodeJS.Timeout | undefined;
    socket.once('data', () => {
      socket.write('HTTP/1.1 200 OK\r\nX-Drip: ');
      timer = setInterval(() => socket.write('a'), DRIP_MS);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      sockets.delete(socket);
      closedAt.push(Date.now());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    open: () => sockets.size,
    closedAt,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

let platform: TestPlatform;
let receiver: WebhookReceiver;
let dripper: Dripper;

beforeAll(async () => {
  platform = await startTestPlatform({ FIELDOPS_WEBHOOK_ALLOW_PRIVATE: '1', ...FAST_DISPATCH });
  receiver = await startReceiver();
  dripper = await startDripper();
});
afterAll(async () => {
  // The dripper goes first, so the attempts still held end at once and the platform stops.
  await dripper.close();
  await platform.stop();
  await receiver.close();
});

async function subscribe(client: Client, url: string): Promise<string> {
  const reply = await client.post('/webhooks', { url, eventTypes: ['lead.created'] });
  expect(reply.status).toBe(201);
  return (reply.body.webhook as { id: string }).id;
}

interface Attempt {
  statusCode: number;
  error: string;
  durationMs: number;
}

async function attempts(client: Client, subscriptionId: string): Promise<Attempt[]> {
  const reply = await client.get(`/webhooks/${subscriptionId}/deliveries`);
  expect(reply.status).toBe(200);
  return (reply.body.items as { attempts: Attempt[] }[]).flatMap((item) => item.attempts);
}

describe('delivery slots and the attempt deadline', () => {
  it("cuts a dripping target off at the total deadline, and another tenant's deliveries flow meanwhile", async () => {
    const slow = await platform.tenant('Dripping Target Co');
    const ids: string[] = [];
    for (let n = 1; n <= SLOW_SUBSCRIPTIONS; n++)
      ids.push(await subscribe(slow.api, dripper.url(`/drip/${n}`)));
    const fast = await platform.tenant('Prompt Target Co');
    await subscribe(fast.api, receiver.url('/prompt'));

    expect((await slow.api.post('/leads', { name: 'Dripped Lead' })).status).toBe(201);
    // The slow tenant's attempts are under way, each holding a slot.
    await eventually(async () => (dripper.open() > 0 ? true : undefined), WAIT_MS);

    expect((await fast.api.post('/leads', { name: 'Prompt Lead' })).status).toBe(201);
    const [request] = await eventually(async () => {
      const got = receiver.received('/prompt');
      return got.length > 0 ? got : undefined;
    }, WAIT_MS);
    // It arrived while every dripping attempt was still held: no slow attempt had been cut yet.
    expect(dripper.closedAt.filter((at) => at <= (request?.at ?? 0))).toEqual([]);
    // The slow tenant held only its share of the slots, never all of them.
    expect(dripper.open()).toBeLessThan(SLOW_SUBSCRIPTIONS);

    // Each dripping attempt ends at the deadline, recorded as a failure naming it.
    const cut = await eventually(async () => {
      const all = (await Promise.all(ids.map((id) => attempts(slow.api, id)))).flat();
      return all.length > 0 ? all : undefined;
    }, WAIT_MS);
    for (const attempt of cut) {
      expect(attempt.statusCode).toBe(0);
      expect(attempt.error).toContain(`${DEADLINE_MS} ms deadline`);
      expect(attempt.durationMs).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    }
  }, 150_000);

  it('refuses an answer whose header is over the limit (8192 bytes by default)', async () => {
    const { api } = await platform.tenant('Large Header Co');
    receiver.script('/large-header', () => ({ status: 200, headers: { 'x-padding': 'p'.repeat(10_000) } }));
    const id = await subscribe(api, receiver.url('/large-header'));
    expect((await api.post('/leads', { name: 'Large Header Lead' })).status).toBe(201);
    const [attempt] = await eventually(async () => {
      const got = await attempts(api, id);
      return got.length > 0 ? got : undefined;
    }, WAIT_MS);
    expect(attempt).toMatchObject({ statusCode: 0 });
    expect(attempt?.error).toContain('exceed 8192 bytes');
  });
});
