// grpc.health.v1 on a real server over the internal mTLS: one status per service served, following
// the process's readiness, NOT_SERVING once the server drains; and the ops probes beside it.
import { crm } from '@fieldops/proto';
import { AppError } from '../src/errors.ts';
import { connectHealthClient, peerServes, registerPeerChecks } from '../src/grpc/health-service.ts';
import { bindService, startGrpcServer } from '../src/grpc/server.ts';
import type { GrpcServer } from '../src/grpc/server.ts';
import { HealthRegistry, startOpsServer } from '../src/health.ts';
import type { OpsServer } from '../src/health.ts';
import { createLogger } from '../src/log.ts';

const logger = createLogger('kit-grpc-health-test', 'silent');
const unused = async (): Promise<never> => {
  throw new AppError('internal', 'Not exercised by this test.');
};
const crmBinding = bindService(crm.CrmServiceService, {
  listLeads: unused,
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
const CRM_SERVICE = 'fieldops.crm.v1.CrmService';

/** Asks until the answer is `want` (statuses follow readiness on an interval); false if it never is. */
async function eventually(ask: () => Promise<boolean>, want: boolean, tries = 50): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    if ((await ask()) === want) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

describe('grpc.health.v1', () => {
  let ready = true;
  const registry = new HealthRegistry();
  registry.register('store', () => ready);
  let server: GrpcServer;
  let client: ReturnType<typeof connectHealthClient>;

  beforeAll(async () => {
    server = await startGrpcServer({ services: [crmBinding], logger, readiness: registry });
    client = connectHealthClient(server.address);
  });
  afterAll(async () => {
    client.close();
    await server.stop();
  });

  it('answers SERVING for the whole server and for each service it serves, to any internal caller', async () => {
    // The test's certificate names kinds the crm caller table does not list for Health: it is exempt.
    expect(await peerServes(client, '', 5000)).toBe(true);
    expect(await peerServes(client, CRM_SERVICE, 5000)).toBe(true);
  });

  it('answers NOT_FOUND (not serving) for a service the server does not serve', async () => {
    expect(await peerServes(client, 'fieldops.audit.v1.AuditService', 5000)).toBe(false);
  });

  it('follows the process readiness: NOT_SERVING while a required check fails, SERVING again after', async () => {
    ready = false;
    registry.invalidate();
    expect(await eventually(() => peerServes(client, CRM_SERVICE, 5000), false)).toBe(true);
    ready = true;
    registry.invalidate();
    expect(await eventually(() => peerServes(client, CRM_SERVICE, 5000), true)).toBe(true);
  });
});

describe('peer checks', () => {
  it('show each peer on the report, without taking the caller out of service when one is down', async () => {
    const peer = await startGrpcServer({ services: [crmBinding], logger, readiness: null });
    const registry = new HealthRegistry();
    const unregister = registerPeerChecks(registry, { crm: peer.address });
    try {
      expect(await registry.report()).toEqual({ ok: true, checks: { 'peer:crm': true } });
      await peer.stop();
      registry.invalidate();
      expect(await registry.report()).toEqual({ ok: true, checks: { 'peer:crm': false } });
    } finally {
      unregister();
    }
  });
});

describe('ops probes', () => {
  const registry = new HealthRegistry();
  let ops: OpsServer;
  let storeUp = true;
  let runs = 0;
  registry.register('store', () => {
    runs += 1;
    return storeUp;
  });

  beforeAll(async () => {
    ops = await startOpsServer({ host: '127.0.0.1', port: 0, logger, registry });
  });
  afterAll(() => ops.stop());

  const get = (path: string) => fetch(`http://127.0.0.1:${ops.port}${path}`);

  it('liveness stays 200 while a dependency is down; readiness goes 503', async () => {
    storeUp = false;
    registry.invalidate();
    expect((await get('/readyz')).status).toBe(503);
    expect((await get('/healthz')).status).toBe(200);
    storeUp = true;
    registry.invalidate();
    expect((await get('/readyz')).status).toBe(200);
  });

  it('shares one run of the checks among probes that arrive together', async () => {
    registry.invalidate();
    runs = 0;
    const answers = await Promise.all(Array.from({ length: 20 }, () => get('/readyz')));
    expect(answers.every((res) => res.status === 200)).toBe(true);
    expect(runs).toBe(1);
  });

  it('bounds a check that hangs: the probe answers 503 instead of waiting on it', async () => {
    const hanging = new HealthRegistry();
    hanging.register('peer', () => new Promise<boolean>(() => undefined));
    const slow = await startOpsServer({ host: '127.0.0.1', port: 0, logger, registry: hanging });
    try {
      const res = await fetch(`http://127.0.0.1:${slow.port}/readyz`);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ ok: false, checks: { peer: false } });
    } finally {
      await slow.stop();
    }
  });
});
