// The deployed topology's service ports speak only mTLS with a certificate of its own CA (issue 32):
// a script on the same machine that dials crm's port directly — in plaintext, over TLS without a
// client certificate, or with a certificate of another CA — is refused before any handler runs,
// and the same call with the cluster's test identity and no signed context is refused as
// unauthenticated. The in-process platform shows the same rules one by one
// (test/internal-calls.test.ts); this shows that what `npm run cluster` starts holds them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ChannelCredentials, Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { makeInternalCa } from '@fieldops/kit/internal-ca';
import { common, crm } from '@fieldops/proto';
import { clusterStatus } from '../../scripts/cluster/cluster.mjs';
import { clusterOfFile } from '../support/cluster.ts';

const cluster = clusterOfFile('Internal TLS Co', { workers: 1 });

function crmAddress(): string {
  const status = clusterStatus({ dataDir: cluster.dataDir })!;
  const crmProcess = status.processes.find((p) => p.name === 'crm');
  if (!crmProcess?.port || crmProcess.state !== 'running') throw new Error('crm is not running');
  return `127.0.0.1:${crmProcess.port}`;
}

/** The cluster's own files: its CA, and the identity the tests play other kinds with. */
const pki = (name: string) => readFileSync(join(cluster.dataDir, 'pki', name));

/** listLeads on crm's port with the given transport and an unsigned context naming some tenant. */
const listLeads = (credentials: ChannelCredentials) =>
  new Promise<ServiceError | null>((resolve) => {
    const client = new crm.CrmServiceClient(crmAddress(), credentials);
    const metadata = new Metadata();
    const context = common.RequestContext.fromPartial({
      requestId: 'req_direct',
      tenant: { id: 'ten_someone_else', currency: 'USD', defaultVertical: 'survey' },
      principal: { kind: 'token', tokenId: 'tok_madeup', role: 'Owner', memberId: 'mem_madeup' },
      operation: 'listLeads',
    });
    metadata.set('fieldops-context-bin', Buffer.from(common.RequestContext.encode(context).finish()));
    client.listLeads(
      { q: '', status: '', cursor: '', limit: 10 } as never,
      metadata,
      { deadline: Date.now() + 15_000 },
      (error) => {
        client.close();
        resolve(error);
      },
    );
  });

// The server's certificate names its kind as a URI, not a host name; these checks are about the
// client's side of the handshake, so the host-name check is left out.
const noHostCheck = { checkServerIdentity: () => undefined };

describe('the topology’s service ports', () => {
  it('refuse a plaintext call', async () => {
    expect((await listLeads(ChannelCredentials.createInsecure()))?.code).toBe(status.UNAVAILABLE);
  });

  it('refuse TLS without a client certificate', async () => {
    const error = await listLeads(ChannelCredentials.createSsl(pki('tests/ca.crt'), null, null, noHostCheck));
    expect(error?.code).toBe(status.UNAVAILABLE);
  });

  it('refuse a client certificate of another CA', async () => {
    const stranger = await makeInternalCa('a stranger CA', 1);
    const issued = await stranger.issue(['gateway']);
    const error = await listLeads(
      ChannelCredentials.createSsl(
        pki('tests/ca.crt'),
        Buffer.from(issued.key),
        Buffer.from(issued.cert),
        noHostCheck,
      ),
    );
    expect(error?.code).toBe(status.UNAVAILABLE);
  });

  it('refuse a context no gateway signed, even over the cluster’s own certificate', async () => {
    const error = await listLeads(
      ChannelCredentials.createSsl(
        pki('tests/ca.crt'),
        pki('tests/tls.key'),
        pki('tests/tls.crt'),
        noHostCheck,
      ),
    );
    expect(error?.code).toBe(status.UNAUTHENTICATED);
  });
});
