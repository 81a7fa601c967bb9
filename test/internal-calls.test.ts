// Internal calls are authenticated and authorized (issue #32): every gRPC port of the platform
// requires mTLS with a certificate of the internal CA, each service accepts only the kinds
// topology.yaml lets dial it, and the request context a service acts on must carry the gateway's
// signature for that request (or a system process's own). Played here against the real platform
// in-process, with certificates of other identities from the same CA, as a compromised pod would hold.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ChannelCredentials, Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { systemContext, type RequestContext } from '@fieldops/kit';
import { AppError, ERROR_CATALOGUE } from '@fieldops/kit';
import {
  GRANT_TTL_MS,
  callUnary,
  connectClient,
  grantedContext,
  loadTrust,
  PROCESS_KINDS,
  setProcessTrust,
  type LoadedTrust,
} from '@fieldops/kit/grpc';
import {
  issueTrust,
  makeContextKeys,
  makeInternalCa,
  type ContextKeys,
  type InternalCa,
} from '@fieldops/kit/internal-ca';
import { common, crm, runLeases, tenantExports } from '@fieldops/proto';
import { startTestPlatform, type Client, type TestPlatform } from './support/harness.ts';

let ca: InternalCa;
let keys: ContextKeys;
let platform: TestPlatform;
let api: Client;
let tenantId: string;
/** The identities a compromised pod of each kind would hold. */
const as: Record<string, LoadedTrust> = {};

const grpcStatusOf = (error: unknown): number =>
  error instanceof AppError ? ERROR_CATALOGUE[error.code].grpc : status.UNKNOWN;

async function refusal(call: Promise<unknown>): Promise<AppError> {
  const outcome = await call.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(outcome instanceof AppError)) throw new Error(`expected a refusal, got ${JSON.stringify(outcome)}`);
  return outcome;
}

/** A Manager's context in `tenant`, as the gateway builds one (unsigned until sent). */
const managerContext = (tenant: string): RequestContext => ({
  requestId: `req_${Math.random().toString(36).slice(2)}`,
  tenant: { id: tenant, currency: 'USD', defaultVertical: 'survey' },
  principal: { kind: 'token', tokenId: 'tok_madeup', role: 'Owner', memberId: 'mem_madeup' },
  idempotencyKey: '',
  agent: { runId: '', task: '', model: '', confirmedBy: '' },
  dryRun: false,
  operation: 'listLeads',
});

const crmAs = (kind: string) =>
  connectClient(crm.CrmServiceClient, platform.serviceAddress('crm'), { trust: as[kind]! });

beforeAll(async () => {
  ca = await makeInternalCa('internal-calls test CA', 1);
  keys = makeContextKeys();
  // The platform runs every kind in this process, with the gateway's signing key.
  setProcessTrust(await issueTrust(ca, PROCESS_KINDS, keys, { signs: true }));
  platform = await startTestPlatform();
  ({ api, tenantId } = await platform.tenant('Internal Calls Co'));
  for (const kind of ['gateway', 'projects', 'webhooks', 'exports', 'capture-worker', 'measurements']) {
    as[kind] = loadTrust(await issueTrust(ca, [kind], keys, { signs: kind === 'gateway' }));
  }
  expect((await api.post('/leads', { name: 'Ada Lovelace', email: 'ada@example.test' })).status).toBe(201);
});
afterAll(() => platform.stop());

describe('the transport: mTLS with a certificate of the internal CA', () => {
  const rawList = (credentials: ChannelCredentials) =>
    new Promise<ServiceError | null>((resolve) => {
      const client = new crm.CrmServiceClient(platform.serviceAddress('crm'), credentials);
      const metadata = new Metadata();
      metadata.set(
        'fieldops-context-bin',
        Buffer.from(common.RequestContext.encode(managerContext(tenantId)).finish()),
      );
      client.listLeads(
        { q: '', status: '', cursor: '', limit: 10 } as never,
        metadata,
        { deadline: Date.now() + 10_000 },
        (error) => {
          client.close();
          resolve(error);
        },
      );
    });

  it('refuses a plaintext call to a service port', async () => {
    const error = await rawList(ChannelCredentials.createInsecure());
    expect(error?.code).toBe(status.UNAVAILABLE);
  });

  it('refuses TLS without a client certificate', async () => {
    const error = await rawList(
      ChannelCredentials.createSsl(Buffer.from(ca.cert), null, null, {
        checkServerIdentity: () => undefined,
      }),
    );
    expect(error?.code).toBe(status.UNAVAILABLE);
  });

  it('refuses a certificate of another CA, even one naming the gateway', async () => {
    const other = await makeInternalCa('another CA', 1);
    const stranger = loadTrust(await issueTrust(other, ['gateway'], makeContextKeys(), { signs: true }));
    const client = connectClient(crm.CrmServiceClient, platform.serviceAddress('crm'), { trust: stranger });
    const error = await refusal(callUnary(client, 'listLeads', {} as never, managerContext(tenantId)));
    client.close();
    expect(error.code).toBe('unavailable');
  });
});

describe('who may call whom (topology.yaml dials)', () => {
  it('refuses a valid certificate of a kind that does not dial the service, PERMISSION_DENIED', async () => {
    // webhooks dials nothing; its certificate is good, its call is not.
    const client = crmAs('webhooks');
    const error = await refusal(callUnary(client, 'listLeads', {} as never, managerContext(tenantId)));
    client.close();
    expect(grpcStatusOf(error)).toBe(status.PERMISSION_DENIED);
    expect(error.message).toMatch(/webhooks may not call fieldops\.crm\.v1\.CrmService/);
  });

  it('lets the gateway, whose context it signs, list the leads', async () => {
    const client = crmAs('gateway');
    const page = await callUnary(client, 'listLeads', {} as never, managerContext(tenantId));
    client.close();
    expect(page.items.map((lead) => lead.name)).toEqual(['Ada Lovelace']);
  });
});

describe('each connection is judged by its own certificate, read once (peer-session.ts)', () => {
  it('keeps two open connections of different kinds apart, call after call', async () => {
    const gateway = crmAs('gateway');
    const webhooks = crmAs('webhooks');
    try {
      for (let round = 0; round < 3; round++) {
        const page = await callUnary(gateway, 'listLeads', {} as never, managerContext(tenantId));
        expect(page.items.map((lead) => lead.name)).toEqual(['Ada Lovelace']);
        const error = await refusal(callUnary(webhooks, 'listLeads', {} as never, managerContext(tenantId)));
        expect(error.message).toMatch(/webhooks may not call fieldops\.crm\.v1\.CrmService/);
      }
    } finally {
      gateway.close();
      webhooks.close();
    }
  });
});

describe('the request context: signed by the gateway for this request', () => {
  const leadsOf = async (tenant: string) => {
    const client = crmAs('gateway');
    const page = await callUnary(client, 'listLeads', {} as never, managerContext(tenant));
    client.close();
    return page.items.map((lead) => lead.name);
  };

  it('refuses an unsigned context from a peer that may dial crm (projects), UNAUTHENTICATED', async () => {
    const client = crmAs('projects');
    const error = await refusal(callUnary(client, 'listLeads', {} as never, managerContext(tenantId)));
    const write = await refusal(
      callUnary(
        client,
        'createLead',
        { name: 'Mallory', email: 'm@example.test' } as never,
        managerContext(tenantId),
      ),
    );
    client.close();
    expect(grpcStatusOf(error)).toBe(status.UNAUTHENTICATED);
    expect(grpcStatusOf(write)).toBe(status.UNAUTHENTICATED);
    expect(await leadsOf(tenantId)).toEqual(['Ada Lovelace']);
  });

  it('refuses a context signed with another key (forged), UNAUTHENTICATED, and changes nothing', async () => {
    const forger = loadTrust({ ...(await issueTrust(ca, ['projects'], makeContextKeys(), { signs: true })) });
    const forged = grantedContext(managerContext(tenantId), forger);
    const client = crmAs('projects');
    const error = await refusal(
      callUnary(client, 'createLead', { name: 'Mallory', email: 'm@example.test' } as never, forged),
    );
    client.close();
    expect(grpcStatusOf(error)).toBe(status.UNAUTHENTICATED);
    expect(await leadsOf(tenantId)).toEqual(['Ada Lovelace']);
  });

  it('refuses an expired context, UNAUTHENTICATED', async () => {
    const expired = grantedContext(
      managerContext(tenantId),
      as['gateway']!,
      Date.now() - GRANT_TTL_MS - 1000,
    );
    const client = crmAs('projects');
    const error = await refusal(callUnary(client, 'listLeads', {} as never, expired));
    client.close();
    expect(grpcStatusOf(error)).toBe(status.UNAUTHENTICATED);
    expect(error.message).toMatch(/expired/);
  });

  it("refuses a context whose tenant is not the one signed (another tenant's leads), PERMISSION_DENIED", async () => {
    const other = await platform.tenant('Other Co');
    await other.api.post('/leads', { name: 'Grace Hopper', email: 'grace@example.test' });
    // A real grant for the attacker's own tenant, replayed with the other tenant's id.
    const signed = grantedContext(managerContext(tenantId), as['gateway']!);
    const replayed = { ...signed, tenant: { ...signed.tenant!, id: other.tenantId } };
    const client = crmAs('projects');
    const error = await refusal(callUnary(client, 'listLeads', {} as never, replayed));
    client.close();
    expect(grpcStatusOf(error)).toBe(status.PERMISSION_DENIED);
    expect(await leadsOf(other.tenantId)).toEqual(['Grace Hopper']);
  });

  it('refuses a system principal signed by the gateway key: only system processes vouch for one', async () => {
    const client = crmAs('gateway');
    const claimed: RequestContext = {
      ...managerContext(tenantId),
      principal: systemContext({ id: tenantId, currency: '', defaultVertical: '' }, 'x').principal!,
    };
    const error = await refusal(callUnary(client, 'listLeads', {} as never, claimed));
    client.close();
    expect(grpcStatusOf(error)).toBe(status.UNAUTHENTICATED);
  });
});

describe('RunLeaseService: the capture workers only', () => {
  const system = () => systemContext({ id: tenantId, currency: '', defaultVertical: '' }, 'listActiveRuns');
  const leasesAs = (kind: string) =>
    connectClient(runLeases.RunLeaseServiceClient, platform.serviceAddress('capture'), { trust: as[kind]! });

  it('refuses a system call from a system process that is not a worker (exports), PERMISSION_DENIED', async () => {
    const client = leasesAs('exports');
    const error = await refusal(callUnary(client, 'listActiveRuns', { limit: 10 }, system()));
    client.close();
    expect(grpcStatusOf(error)).toBe(status.PERMISSION_DENIED);
  });

  it('refuses the gateway claiming a system principal', async () => {
    const client = leasesAs('gateway');
    const error = await refusal(callUnary(client, 'listActiveRuns', { limit: 10 }, system()));
    client.close();
    expect(grpcStatusOf(error)).toBe(status.PERMISSION_DENIED);
  });

  it('answers a capture worker', async () => {
    const client = leasesAs('capture-worker');
    const answer = await callUnary(client, 'listActiveRuns', { limit: 10 }, system());
    client.close();
    expect(Array.isArray(answer.items)).toBe(true);
  });
});

describe("TenantDumpService: every store serves its tenant's dump, to the export packager only", () => {
  const dumpAs = (kind: string) =>
    connectClient(tenantExports.TenantDumpServiceClient, platform.serviceAddress('crm'), {
      trust: as[kind]!,
    });
  const packagerContext = () =>
    systemContext({ id: tenantId, currency: '', defaultVertical: '' }, 'packageExport');

  it('refuses the gateway, though it may call crm, PERMISSION_DENIED', async () => {
    const client = dumpAs('gateway');
    const error = await refusal(callUnary(client, 'listCollections', {}, managerContext(tenantId)));
    client.close();
    expect(grpcStatusOf(error)).toBe(status.PERMISSION_DENIED);
  });

  it("answers the export packager with crm's collections", async () => {
    const client = dumpAs('exports');
    const list = await callUnary(client, 'listCollections', {}, packagerContext());
    client.close();
    expect(list.names.length).toBeGreaterThan(0);
  });
});
