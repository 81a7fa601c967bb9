// grpc.health.v1 on every gRPC server, and the client side a process uses to ask a peer.
// The Health service is the official one (grpc-health-check, from grpc-node). It is registered
// outside the wrapper that checks callers against callers.gen.ts: any process holding a
// certificate of the internal CA may ask any server whether it serves (the TLS layer still
// refuses a caller without one). It answers nothing about tenants and carries no request context,
// so it needs neither. The kubelet, which holds no client certificate, probes the ops HTTP port
// (/healthz, /readyz) instead; see docs/deploy.md "Probes".
import { makeGenericClientConstructor } from '@grpc/grpc-js';
import type { Client, Server, ServiceDefinition as GrpcServiceDefinition } from '@grpc/grpc-js';
import { HealthImplementation, service as healthDefinition } from 'grpc-health-check';
import type { ServingStatus } from 'grpc-health-check';
import type { HealthRegistry } from '../health.ts';
import { connectClient } from './client.ts';
import type { ConnectOptions } from './client.ts';

/** The service name grpc.health.v1 uses for "the server as a whole". */
export const WHOLE_SERVER = '';

// How often a server's statuses follow its process's readiness. The report itself is cached by the
// registry, so this adds no work beyond one report per interval.
const FOLLOW_INTERVAL_MS = 2000;

export interface ServerHealth {
  /** Every service this server registers, and the whole server, as `status`. */
  setAll(status: ServingStatus): void;
  /** Stops following readiness and answers NOT_SERVING from now on (draining). */
  stop(): void;
}

/**
 * Adds grpc.health.v1.Health to `server` with one status per service it serves (and ''), SERVING
 * while `readiness` reports ready, NOT_SERVING otherwise or once stop() is called.
 */
export function addHealthService(
  server: Server,
  services: readonly string[],
  readiness: HealthRegistry | undefined,
): ServerHealth {
  const names = [WHOLE_SERVER, ...services];
  const implementation = new HealthImplementation(Object.fromEntries(names.map((name) => [name, 'SERVING'])));
  implementation.addToServer(server as unknown as Parameters<HealthImplementation['addToServer']>[0]);
  let stopped = false;
  const setAll = (status: ServingStatus) => {
    for (const name of names) implementation.setStatus(name, status);
  };
  const follow = () => {
    readiness
      ?.report()
      .then((report) => {
        if (!stopped) setAll(report.ok ? 'SERVING' : 'NOT_SERVING');
      })
      .catch(() => undefined);
  };
  const timer = readiness === undefined ? undefined : setInterval(follow, FOLLOW_INTERVAL_MS);
  timer?.unref();
  follow();
  return {
    setAll,
    stop: () => {
      stopped = true;
      clearInterval(timer);
      setAll('NOT_SERVING');
    },
  };
}

interface HealthCheckResponse {
  status: ServingStatus | number;
}

type HealthClient = Client & {
  check(
    request: { service: string },
    options: { deadline: number },
    callback: (error: Error | null, response?: HealthCheckResponse) => void,
  ): void;
};

const HealthClientCtor = makeGenericClientConstructor(
  healthDefinition as unknown as GrpcServiceDefinition,
  'Health',
);

/** A client of a peer's grpc.health.v1 over the process's mTLS (any kind of the CA may serve it). */
export function connectHealthClient(address: string, options: ConnectOptions = {}): HealthClient {
  return connectClient(HealthClientCtor as never, address, options) as HealthClient;
}

/** Whether the peer at the client's address says `service` ('' = the whole server) is SERVING. */
export function peerServes(client: HealthClient, service: string, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    client.check({ service }, { deadline: Date.now() + timeoutMs }, (error, response) => {
      resolve(error === null && (response?.status === 'SERVING' || response?.status === 1));
    });
  });
}

// Below the registry's own CHECK_TIMEOUT_MS, so a peer that does not answer counts as down
// rather than as a hung check.
const PEER_CHECK_TIMEOUT_MS = 1500;

/**
 * Adds a report-only `peer:<name>` check per address (its grpc.health.v1 answer for the whole
 * server), shown on /readyz. Report-only because every replica of a caller shares its peers: a
 * required check would take them all out of service together when one peer kind is down, turning
 * that kind's retryable 503s into a whole-platform outage. Returns an unregister that also closes
 * the clients.
 */
export function registerPeerChecks(
  registry: HealthRegistry,
  addresses: Readonly<Record<string, string>>,
  options: ConnectOptions = {},
): () => void {
  const undo = Object.entries(addresses).map(([name, address]) => {
    const client = connectHealthClient(address, options);
    const unregister = registry.register(
      `peer:${name}`,
      () => peerServes(client, WHOLE_SERVER, PEER_CHECK_TIMEOUT_MS),
      { required: false },
    );
    return () => {
      unregister();
      client.close();
    };
  });
  return () => undo.forEach((fn) => fn());
}
