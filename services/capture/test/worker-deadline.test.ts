// The worker process's client of capture's RunLeaseService calls with the process's configured
// gRPC deadline (FIELDOPS_GRPC_DEADLINE_MS, set by the process runner as connectClient's default),
// shown against a server that answers after 4 s: configured for 1 s the call gives up first, for
// 12 s it gets the answer. (Its measurements client keeps the measuring deadline it passes itself:
// recording quantities measures a whole cloud again.)
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { loadConfig } from '@fieldops/kit';
import { setProcessGrpcDeadline } from '@fieldops/kit/grpc';
import { outcomeOf, startSlowGrpcServer, type SlowGrpcServer } from '@fieldops/kit/testing';
import { runLeases } from '@fieldops/proto';
import { connectGrpcRunLeases } from '../src/worker/run-leases.grpc.ts';

let server: SlowGrpcServer;

beforeAll(async () => {
  server = await startSlowGrpcServer([runLeases.RunLeaseServiceService], 4_000);
});
afterAll(async () => {
  setProcessGrpcDeadline(loadConfig({}).grpcDeadlineMs);
  await server?.stop();
});

async function trackWith(env: Record<string, string>) {
  setProcessGrpcDeadline(loadConfig(env).grpcDeadlineMs);
  const leases = connectGrpcRunLeases(server.address);
  try {
    return await outcomeOf(leases.track('ten_1', 'run_1'));
  } finally {
    leases.close();
  }
}

describe("the worker's run-lease client", () => {
  it('calls with the configured deadline', async () => {
    expect(
      await trackWith({ FIELDOPS_GRPC_DEADLINE_MS: '1000', FIELDOPS_MONGODB_OPERATION_TIMEOUT_MS: '500' }),
    ).toBe('deadline exceeded');
    expect(await trackWith({ FIELDOPS_GRPC_DEADLINE_MS: '12000' })).toBe('answered');
    expect(server.received).toEqual([
      '/fieldops.capture.v1.RunLeaseService/TrackRun',
      '/fieldops.capture.v1.RunLeaseService/TrackRun',
    ]);
  });
});
