// The whole platform in one process on embedded defaults (`npm start`): every service on its own
// ephemeral gRPC port, the outbox relays, the audit consumer and the gateway on HOST:PORT. The
// gateway still reaches the services only through gRPC, exactly as in a cluster.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openAuditDomain } from '@fieldops/audit';
import type { Config } from '@fieldops/kit/config';
import { createLogger, type Logger } from '@fieldops/kit/log';
import { startCrmServer } from '@fieldops/crm/server';
import { startAuditServer } from '@fieldops/audit/server';
import { startOutboxRelay } from '@fieldops/kit/outbox/relay';
import { createGatewayApp } from '@fieldops/gateway/app';
import type { Express } from 'express';
import { connectServiceClients, type ServiceAddresses } from '@fieldops/gateway/clients';
import { openIdentity } from '@fieldops/gateway/identity/index';
import { ensureDemoTenant } from '@fieldops/gateway/identity/demo';
import { limitsFromConfig } from '@fieldops/gateway/limits';
import { resolveAdminSecret } from './admin-secret.js';
import { openEventLog, openFastState, openServiceStore } from '@fieldops/kit/adapters';

export interface RunningPlatform {
  url: string;
  port: number;
  adminSecret: string;
  adminSecretGenerated: boolean;
  /** Set on the first start only: the demo tenant's Manager token. */
  demoToken: string | undefined;
  demoTenantId: string;
  /** host:port of each service's gRPC server (internal; for tools such as the bench). */
  services: ServiceAddresses;
  stop(): Promise<void>;
}

/** Runs `steps` in reverse order, each even if an earlier one failed. */
async function unwind(steps: (() => Promise<unknown>)[], logger: Logger): Promise<void> {
  for (const step of steps.reverse()) {
    await step().catch((err: unknown) => logger.warn({ err }, 'shutdown step failed'));
  }
}

export async function startPlatform(config: Config, logger: Logger): Promise<RunningPlatform> {
  const cleanup: (() => Promise<unknown>)[] = [];
  try {
    const log = await openEventLog(config);
    cleanup.push(() => log.close());
    const relay = async (name: string) => {
      const store = await openServiceStore(config, name);
      cleanup.push(() => store.close());
      const running = startOutboxRelay({
        store,
        log,
        onError: (err: unknown) => logger.warn({ err, store: name }, 'outbox relay'),
      });
      cleanup.push(() => running.stop());
      return store;
    };

    const crm = await startCrmServer({
      store: await relay('crm'),
      logger: createLogger('crm', logger.level),
    });
    cleanup.push(() => crm.stop());
    const auditStore = await openServiceStore(config, 'audit');
    cleanup.push(() => auditStore.close());
    const audit = await openAuditDomain({ store: auditStore, log });
    const consumer = await audit.startConsumer();
    cleanup.push(() => consumer.stop());
    const auditServer = await startAuditServer({
      handlers: audit.handlers,
      logger: createLogger('audit', logger.level),
    });
    cleanup.push(() => auditServer.stop());

    const fast = await openFastState(config);
    cleanup.push(() => fast.close());
    const identity = await openIdentity({ store: await relay('gateway') });
    const services: ServiceAddresses = { crm: crm.address, audit: auditServer.address };
    const clients = connectServiceClients(services);
    cleanup.push(async () => clients.close());
    const admin = resolveAdminSecret(config.adminSecret, config.dataDir);
    const app = createGatewayApp({
      identity,
      fast,
      clients,
      adminSecret: admin.secret,
      limits: limitsFromConfig(config),
      logger: createLogger('gateway', logger.level),
      ready: () => clients.ready(),
    });
    const server = await listen(app, config.host, config.port);
    cleanup.push(() => new Promise((resolve) => server.close(resolve)));
    const demo = await ensureDemoTenant(identity);
    const port = (server.address() as AddressInfo).port;
    return {
      url: `http://${config.host}:${port}`,
      port,
      adminSecret: admin.secret,
      adminSecretGenerated: admin.generated,
      demoToken: demo.token?.secret,
      demoTenantId: demo.tenant.id,
      services,
      stop: () => unwind(cleanup, logger),
    };
  } catch (err) {
    await unwind(cleanup, logger);
    throw err;
  }
}

function listen(app: Express, host: string, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(app);
    server.keepAliveTimeout = 65_000;
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
