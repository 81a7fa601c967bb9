// FIELDOPS_GRPC_DEADLINE_MS reaches every client a process connects: the process runner hands its
// configuration to connectClient's default, so no caller has to pass it on. Shown against a server
// that answers after 4 s: a process configured for 1 s gives up first, one configured for 12 s gets
// the answer (seconds of margin on both sides; nothing is timed).
import { crm } from '@fieldops/proto';
import { DEFAULT_GRPC_DEADLINE_MS } from '../src/config.ts';
import type { RequestContext } from '../src/context.ts';
import { callUnary, connectClient, setProcessGrpcDeadline } from '../src/grpc/client.ts';
import { HealthRegistry } from '../src/health.ts';
import { startServiceProcess } from '../src/process/service-process.ts';
import { outcomeOf, startSlowGrpcServer, testContext, type CallOutcome } from '../src/testing/index.ts';

const ANSWER_AFTER_MS = 4_000;
const ENV = { KAFKA_BROKERS: 'kafka-0.kafka:9092', FIELDOPS_OPS_PORT: '0', LOG_LEVEL: 'silent' };
const ctx: RequestContext = testContext();

let server: Awaited<ReturnType<typeof startSlowGrpcServer>>;

beforeAll(async () => {
  server = await startSlowGrpcServer([crm.CrmServiceService], ANSWER_AFTER_MS);
});
afterAll(async () => {
  setProcessGrpcDeadline(DEFAULT_GRPC_DEADLINE_MS);
  await server.stop();
});

/** A process started with `env`, whose start connects a client and makes one call with it. */
async function callFromProcess(env: Record<string, string>): Promise<CallOutcome> {
  let outcome: Promise<CallOutcome> | undefined;
  const running = await startServiceProcess(
    {
      name: 'deadline-example',
      needs: ['kafkaBrokers'],
      async start({ shutdown }) {
        const client = connectClient(crm.CrmServiceClient, server.address);
        shutdown.push(() => client.close());
        outcome = outcomeOf(callUnary(client, 'listLeads', {}, ctx));
      },
    },
    { env: { ...ENV, ...env }, registry: new HealthRegistry() },
  );
  try {
    return await outcome!;
  } finally {
    await running.stop();
  }
}

describe("a process's gRPC deadline", () => {
  it('is what its clients call with: shorter than the answer gives up, longer gets it', async () => {
    // One after the other: the deadline is the process's, and both run in this one.
    const short = await callFromProcess({
      FIELDOPS_GRPC_DEADLINE_MS: '1000',
      FIELDOPS_MONGODB_OPERATION_TIMEOUT_MS: '500',
    });
    const long = await callFromProcess({ FIELDOPS_GRPC_DEADLINE_MS: '12000' });
    expect({ short, long }).toEqual({ short: 'deadline exceeded', long: 'answered' });
  });

  it('is the default, longer than the answer, when unset', async () => {
    expect(DEFAULT_GRPC_DEADLINE_MS).toBeGreaterThan(ANSWER_AFTER_MS + 3_000);
    expect(await callFromProcess({})).toBe('answered');
  });

  it('is refused at start when not longer than the store budget, naming both variables', async () => {
    await expect(
      startServiceProcess(
        { name: 'deadline-example', needs: [], start: async () => undefined },
        {
          env: { ...ENV, FIELDOPS_GRPC_DEADLINE_MS: '5000', FIELDOPS_MONGODB_OPERATION_TIMEOUT_MS: '5000' },
          registry: new HealthRegistry(),
        },
      ),
    ).rejects.toThrow(
      'FIELDOPS_GRPC_DEADLINE_MS (5000) must be longer than FIELDOPS_MONGODB_OPERATION_TIMEOUT_MS (5000)',
    );
  });

  it('gives way to a deadline the caller passes explicitly', async () => {
    setProcessGrpcDeadline(12_000);
    const client = connectClient(crm.CrmServiceClient, server.address, { deadlineMs: 1000 });
    try {
      expect(await outcomeOf(callUnary(client, 'listLeads', {}, ctx))).toBe('deadline exceeded');
    } finally {
      client.close();
    }
  });
});
