// Traffic reaches every replica: two instances of one service behind one target (127.0.0.2 and
// 127.0.0.3 on the same port, as a headless Service's two pod addresses), called through
// connectClient's channel options (round_robin). Calls alternate between both, and an instance
// that starts after the client connected takes calls within the reconnect back-off ceiling.
import { crm } from '@fieldops/proto';
import type { RequestContext } from '../src/context.ts';
import { AppError } from '../src/errors.ts';
import { callUnary, connectClient } from '../src/grpc/client.ts';
import { bindService, startGrpcServer } from '../src/grpc/server.ts';
import type { GrpcServer } from '../src/grpc/server.ts';
import { createLogger } from '../src/log.ts';

const logger = createLogger('kit-grpc-balance-test', 'silent');
const ctx: RequestContext = {
  requestId: 'req_b',
  tenant: { id: 'ten_1', currency: 'EUR', defaultVertical: 'drone' },
  principal: { kind: 'token', tokenId: 'tok_1', role: 'Manager', memberId: 'mem_1' },
  idempotencyKey: '',
  dryRun: false,
  operation: 'listLeads',
};

// grpc-js's max_reconnect_backoff_ms (5 s, client.ts) plus a connection's TLS handshake on a loaded
// machine: the time this test states a late instance takes calls within.
const JOIN_WITHIN_MS = 15_000;

const unused = async (): Promise<never> => {
  throw new AppError('internal', 'Not exercised by this test.');
};
/** A crm server that answers listLeads with its own name as the cursor, so a call shows who served it. */
function instance(name: string, host: string, port: number): Promise<GrpcServer> {
  const binding = bindService(crm.CrmServiceService, {
    listLeads: async () => ({ items: [], nextCursor: name }),
    getLead: unused,
    createLead: unused,
    updateLead: unused,
    listCustomers: unused,
    getCustomer: unused,
    createCustomer: unused,
    updateCustomer: unused,
    convertLead: unused,
    qualifyLead: unused,
  });
  return startGrpcServer({ services: [binding], logger, host, port, readiness: null });
}

async function servedBy(client: crm.CrmServiceClient): Promise<string> {
  const page = await callUnary(client, 'listLeads', {}, ctx, { timeoutMs: 5000 });
  return page.nextCursor ?? '';
}

describe('round_robin across the instances behind one target', () => {
  const servers: GrpcServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
  });

  it('reaches both instances, and one started later takes calls within the stated time', async () => {
    const first = await instance('a', '127.0.0.2', 0);
    servers.push(first);
    const port = first.port;
    const client = connectClient(crm.CrmServiceClient, `ipv4:127.0.0.2:${port},127.0.0.3:${port}`);
    try {
      // Only a is up: every call lands there (the channel skips the address that refuses).
      const early = await Promise.all(Array.from({ length: 6 }, () => servedBy(client)));
      expect(new Set(early)).toEqual(new Set(['a']));

      const second = await instance('b', '127.0.0.3', port);
      servers.push(second);
      const started = Date.now();
      let joinedAfterMs: number | undefined;
      while (Date.now() - started < JOIN_WITHIN_MS) {
        if ((await servedBy(client)) === 'b') {
          joinedAfterMs = Date.now() - started;
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(joinedAfterMs).toBeDefined();

      // Both READY: round_robin spreads consecutive calls over both.
      const spread = [];
      for (let i = 0; i < 10; i++) spread.push(await servedBy(client));
      expect(spread.filter((who) => who === 'a').length).toBeGreaterThanOrEqual(3);
      expect(spread.filter((who) => who === 'b').length).toBeGreaterThanOrEqual(3);
    } finally {
      client.close();
    }
  }, 60_000);
});
