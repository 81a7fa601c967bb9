// The packager's clients of each record-owning service (TenantDumpService) call with the process's
// configured gRPC deadline (FIELDOPS_GRPC_DEADLINE_MS, set by the process runner as connectClient's
// default), shown against a server that answers after 4 s: configured for 1 s the call gives up
// first, for 12 s it gets the answer.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { loadConfig } from '@fieldops/kit';
import { setProcessGrpcDeadline } from '@fieldops/kit/grpc';
import { outcomeOf, startSlowGrpcServer, testContext, type SlowGrpcServer } from '@fieldops/kit/testing';
import { tenantExports } from '@fieldops/proto';
import { closeTenantSources, collectionsOf, connectTenantSources } from '../src/packager/tenant-sources.ts';

let server: SlowGrpcServer;

beforeAll(async () => {
  server = await startSlowGrpcServer([tenantExports.TenantDumpServiceService], 4_000);
});
afterAll(async () => {
  setProcessGrpcDeadline(loadConfig({}).grpcDeadlineMs);
  await server?.stop();
});

async function listWith(env: Record<string, string>) {
  setProcessGrpcDeadline(loadConfig(env).grpcDeadlineMs);
  const sources = connectTenantSources({ crm: server.address, audit: server.address });
  try {
    return await Promise.all(sources.map((source) => outcomeOf(collectionsOf(source, testContext()))));
  } finally {
    closeTenantSources(sources);
  }
}

describe("the packager's tenant sources", () => {
  it('call with the configured deadline', async () => {
    expect(
      await listWith({ FIELDOPS_GRPC_DEADLINE_MS: '1000', FIELDOPS_MONGODB_OPERATION_TIMEOUT_MS: '500' }),
    ).toEqual(['deadline exceeded', 'deadline exceeded']);
    expect(await listWith({ FIELDOPS_GRPC_DEADLINE_MS: '12000' })).toEqual(['answered', 'answered']);
  });
});
