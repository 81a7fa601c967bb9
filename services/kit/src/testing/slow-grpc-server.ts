// Which deadline a gRPC client really calls with, shown without timing assertions: a server that
// answers every call only after `answerAfterMs` (with NOT_FOUND, which needs no valid reply), so a
// client whose deadline is shorter gives up (DEADLINE_EXCEEDED) and one whose deadline is longer
// gets the answer. Choose the deadlines seconds away from `answerAfterMs` on either side, so a
// loaded machine cannot turn one outcome into the other. Imported only by tests.
import {
  Server,
  ServerCredentials,
  status as GrpcStatus,
  type ServiceDefinition,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { AppError } from '../errors.ts';
import { currentTrust } from '../grpc/trust.ts';

export interface SlowGrpcServer {
  /** host:port to connect a client to. */
  address: string;
  /** The calls received so far, by method path (`/fieldops.crm.v1.CrmService/ListLeads`). */
  received: string[];
  stop(): Promise<void>;
}

/** What became of a call: the server's late answer, or the client's deadline first. */
export type CallOutcome = 'answered' | 'deadline exceeded';

const LATE_ANSWER = 'answered late on purpose';

/** Serves every method of `definitions` (each service once), answering each call after the delay. */
export async function startSlowGrpcServer(
  definitions: readonly ServiceDefinition[],
  answerAfterMs: number,
): Promise<SlowGrpcServer> {
  const server = new Server();
  const received: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  for (const definition of new Set(definitions)) {
    const handlers: UntypedServiceImplementation = {};
    for (const [name, method] of Object.entries(definition)) {
      handlers[name] = (_call: unknown, callback: (error: object | null) => void) => {
        received.push(method.path);
        const timer = setTimeout(() => {
          timers.delete(timer);
          callback({ code: GrpcStatus.NOT_FOUND, details: LATE_ANSWER });
        }, answerAfterMs);
        timers.add(timer);
      };
    }
    server.addService(definition, handlers);
  }
  // Over the process's mTLS, as every client expects (the test file's CA).
  const trust = currentTrust();
  const credentials = ServerCredentials.createSsl(
    trust.ca,
    [{ private_key: trust.key, cert_chain: trust.cert }],
    true,
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', credentials, (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  return {
    address: `127.0.0.1:${port}`,
    received,
    stop: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.forceShutdown();
    },
  };
}

/**
 * The outcome of a call to the slow server made through callUnary (or a port built on it); any
 * other failure (the server unreachable, a refusal) is rethrown, so it cannot pass for either.
 */
export async function outcomeOf(call: Promise<unknown>): Promise<CallOutcome> {
  try {
    await call;
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') return 'answered';
    const cause = error instanceof AppError ? (error.cause as { code?: unknown } | undefined) : undefined;
    if (error instanceof AppError && cause?.code === GrpcStatus.DEADLINE_EXCEEDED) return 'deadline exceeded';
    throw error;
  }
  throw new Error('The slow server answers every call with NOT_FOUND; this call succeeded instead.');
}
