// The RunLeases contract on both adapters: in-process over capture's store (the platform's
// workers), and through capture's real gRPC server on a loopback port (a worker process, which
// holds no store). Then what only the gRPC path has: who may call, and a capture that is down.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openEmbeddedBlobStore } from '@fieldops/kit/blobs';
import { systemContext, createLogger } from '@fieldops/kit';
import { openEmbeddedEventLog } from '@fieldops/kit/events';
import { callUnary, connectClient } from '@fieldops/kit/grpc';
import { openEmbeddedStore } from '@fieldops/kit/store';
import { refusal, testContext } from '@fieldops/kit/testing';
import { runLeases } from '@fieldops/proto';
import { defineCaptureCollections } from '../src/collections.ts';
import { storeRunLeases } from '../src/runs/run-leases.local.ts';
import { startCaptureServer } from '../src/server.ts';
import { connectGrpcRunLeases } from '../src/worker/run-leases.grpc.ts';
import { describeRunLeasesContract, type OpenedRunLeases } from './contracts/run-leases.contract.ts';

const logger = createLogger('run-leases-test', 'silent');
// Claims never reach projects; an address nothing listens on proves it.
const NO_PROJECTS = '127.0.0.1:1';

async function openStore(dir: string) {
  const store = await openEmbeddedStore({ dir: join(dir, 'capture') });
  await defineCaptureCollections(store);
  return store;
}

describeRunLeasesContract('in-process', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fieldops-leases-'));
  const store = await openStore(dir);
  return {
    leases: storeRunLeases(store),
    store,
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

/** Capture's gRPC server as its own process starts it, over a fresh store. */
async function openOverGrpc(): Promise<OpenedRunLeases & { address: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'fieldops-leases-grpc-'));
  const store = await openStore(dir);
  const log = await openEmbeddedEventLog({ dir: join(dir, 'events') });
  const blobs = await openEmbeddedBlobStore({ dir: join(dir, 'blobs') });
  const server = await startCaptureServer({ store, blobs, log, logger, projectsAddress: NO_PROJECTS });
  const leases = connectGrpcRunLeases(server.address);
  return {
    leases,
    store,
    address: server.address,
    cleanup: async () => {
      leases.close();
      await server.stop();
      await log.close();
      await blobs.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describeRunLeasesContract('over gRPC', openOverGrpc);

describe('RunLeaseService over gRPC', () => {
  let opened: Awaited<ReturnType<typeof openOverGrpc>>;
  beforeAll(async () => {
    opened = await openOverGrpc();
  });
  afterAll(() => opened.cleanup());

  it("refuses a caller that is not the platform's (a customer's token)", async () => {
    const client = connectClient(runLeases.RunLeaseServiceClient, opened.address);
    try {
      const asCustomer = testContext({ tenantId: 'ten_leases' });
      const refused = await refusal(
        callUnary(client, 'claimRun', { runId: 'run_x', owner: 'me', leaseMs: 5000 }, asCustomer),
      );
      expect(refused.code).toBe('role_denied');
      const system = systemContext({ id: 'ten_leases', currency: '', defaultVertical: '' }, 'claimRun');
      const invalid = await refusal(
        callUnary(client, 'claimRun', { runId: 'run_x', owner: 'me', leaseMs: 0 }, system),
      );
      expect(invalid.code).toBe('field_invalid');
    } finally {
      client.close();
    }
  });

  it('rejects with unavailable when capture cannot be reached, so the worker keeps its hold', async () => {
    const leases = connectGrpcRunLeases(NO_PROJECTS);
    try {
      const held = { tenantId: 'ten_leases', runId: 'run_x', owner: 'wrk_a', version: 2 };
      expect((await refusal(leases.renew(held, 5000))).code).toBe('unavailable');
    } finally {
      leases.close();
    }
  });
});
