// The gateway as it runs anywhere: fast state, the identity store (with its outbox relay), the
// Express app and its HTTP listener. The one-process platform and the gateway's own process both
// start it this way; they differ only in where the service clients point.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openFastState } from '@fieldops/kit/adapters';
import type { Config, Logger } from '@fieldops/kit';
import type { EventLog } from '@fieldops/kit/events';
import { type ShutdownStack, openRelayedStore } from '@fieldops/kit/process';
import type { Express } from 'express';
import { closeMcpSessions, createGatewayApp } from './app.ts';
import { createEdgeServer } from './http-edge.ts';
import type { ServiceClients } from './clients.ts';
import { openIdentity, type Identity } from './identity/index.ts';
import { limitsFromConfig } from './limits.ts';
import type { EmbeddedBlobStore } from '@fieldops/kit/blobs';
import { startChangeFeed } from './sync/start-change-feed.ts';

export interface RunningGateway {
  identity: Identity;
  /** The port the HTTP server took (PORT, or the ephemeral one when PORT is 0). */
  port: number;
}

export async function startGateway(options: {
  config: Config;
  log: EventLog;
  clients: ServiceClients;
  adminSecret: string;
  logger: Logger;
  shutdown: ShutdownStack;
  /** The embedded blob store: its URLs are served by this HTTP server under /blobs. */
  blobs?: EmbeddedBlobStore;
}): Promise<RunningGateway> {
  const { config, log, clients, logger, shutdown } = options;
  const fast = await openFastState(config);
  shutdown.push(() => fast.close());
  const identity = await openIdentity({
    store: await openRelayedStore(config, 'gateway', { log, logger, shutdown }),
    tokenCaps: config.tokenCaps,
  });
  // The sync feed's projection (GET /changes), fed by every service's events.
  const changes = await startChangeFeed({ config, log, logger, shutdown });
  const app = createGatewayApp({
    identity,
    changes,
    fast,
    clients,
    adminSecret: options.adminSecret,
    ...(config.cursorKey ? { cursorKey: config.cursorKey } : {}),
    limits: limitsFromConfig(config),
    trustedProxies: config.trustedProxies,
    logger,
    ready: () => clients.ready(),
    ...(options.blobs ? { blobs: options.blobs } : {}),
  });
  const server = await listen(app, config);
  // Since Node 19, close() also drops idle keep-alive connections; requests in flight finish.
  // A keep-alive connection that was busy at that moment would then hold the close open until
  // keepAliveTimeout (65 s), so each one is closed as soon as its response has gone out.
  shutdown.push(
    () =>
      new Promise((resolve) => {
        closeMcpSessions(app);
        server.close(resolve);
        server.on('request', (_req, res) => res.setHeader('connection', 'close'));
        const idle = setInterval(() => server.closeIdleConnections(), 100);
        server.once('close', () => clearInterval(idle));
      }),
  );
  return { identity, port: (server.address() as AddressInfo).port };
}

function listen(app: Express, config: Config): Promise<Server> {
  return new Promise((resolve, reject) => {
    // keepAliveTimeout defaults to 65 s, longer than the usual load balancer idle timeout (60 s),
    // so the balancer closes first and never sends a request on a connection we are closing.
    const server = createEdgeServer(app, config.http);
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve(server));
  });
}
