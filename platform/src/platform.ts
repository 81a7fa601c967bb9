// The whole platform in one process on embedded defaults (`npm start`): every service on its own
// ephemeral gRPC port, the outbox relays, the audit consumer and the gateway on HOST:PORT. The
// gateway still reaches the services only through gRPC, exactly as in a cluster.
import { startTracing } from '@fieldops/kit/tracing';
import { startAudit } from '@fieldops/audit/start';
import { startWebhooks } from '@fieldops/webhooks/start';
import { startExports } from '@fieldops/exports/start';
import { type Config, createLogger, type Logger } from '@fieldops/kit';
import { startCrmServer } from '@fieldops/crm/start';
import { startProjectsServer } from '@fieldops/projects/start';
import { PROCESS_KINDS, hasProcessTrust, setProcessGrpcDeadline, setProcessTrust } from '@fieldops/kit/grpc';
import { makePrivateDirSync, openRelayedStore, ShutdownStack } from '@fieldops/kit/process';
import { connectServiceClients, type ServiceAddresses, ensureDemoTenant } from '@fieldops/gateway';
import { startGateway } from '@fieldops/gateway/start';
import { resolveAdminSecret } from './admin-secret.ts';
import { openEventLog, openBlobStore } from '@fieldops/kit/adapters';
import { startCapture } from '@fieldops/capture/start';
import { startMeasurementsServer } from '@fieldops/measurements/start';

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

/**
 * Every kind runs in this one process, so one certificate names them all: per-kind certificates
 * would prove nothing between parts that share memory. The calls still go over loopback gRPC with
 * mTLS and signed contexts, from a CA made at start (kept in memory only), so the one-process
 * platform runs the same checks as a cluster. A test that set a trust first keeps it.
 */
async function ensureLoopbackTrust(): Promise<void> {
  if (hasProcessTrust()) return;
  // Imported here: X.509 writing is a large module graph that only a platform without trust needs.
  const { issueTrust, makeContextKeys, makeInternalCa } = await import('@fieldops/kit/internal-ca');
  const ca = await makeInternalCa('fieldops one-process CA', 30);
  setProcessTrust(await issueTrust(ca, PROCESS_KINDS, makeContextKeys(), { signs: true }));
}

// Each piece is started the way its own process starts it (start-audit.ts, start-gateway.ts,
// openRelayedStore), so the one-process platform and the per-service Deployments cannot drift.
export async function startPlatform(config: Config, logger: Logger): Promise<RunningPlatform> {
  // Everything the embedded engines keep is for this user only (kit files/private-files.ts).
  makePrivateDirSync(config.dataDir);
  // Every gRPC client of every service here calls with the configured deadline.
  setProcessGrpcDeadline(config.grpcDeadlineMs);
  await ensureLoopbackTrust();
  const cleanup = new ShutdownStack(logger);
  // Every kind of the platform traces as one process, `fieldops` (tracing/setup.ts); first pushed, last run.
  const tracing = await startTracing('fieldops');
  cleanup.push(() => tracing.flush());
  try {
    const log = await openEventLog(config, logger);
    cleanup.push(() => log.close());
    const relay = (name: string) => openRelayedStore(config, name, { log, logger, shutdown: cleanup });

    const crm = await startCrmServer({
      store: await relay('crm'),
      logger: createLogger('crm', logger.level),
    });
    cleanup.push(() => crm.stop());
    const projects = await startProjectsServer({
      store: await relay('projects'),
      logger: createLogger('projects', logger.level),
      crmAddress: crm.address,
      log,
    });
    cleanup.push(() => projects.stop());
    const blobs = await openBlobStore(config.dataDir);
    cleanup.push(() => blobs.store.close());
    const measurements = await startMeasurementsServer({
      store: await relay('measurements'),
      logger: createLogger('measurements', logger.level),
      projectsAddress: projects.address,
      blobs: blobs.store,
    });
    cleanup.push(() => measurements.stop());
    const capture = await startCapture({
      store: await relay('capture'),
      blobs: blobs.store,
      log,
      projectsAddress: projects.address,
      measurementsAddress: measurements.address,
      logger: createLogger('capture', logger.level),
      shutdown: cleanup,
      scratchDir: config.scratchDir,
    });
    const auditServer = await startAudit({
      config,
      log,
      logger: createLogger('audit', logger.level),
      shutdown: cleanup,
    });

    const webhooksServer = await startWebhooks({
      config,
      log,
      logger: createLogger('webhooks', logger.level),
      shutdown: cleanup,
    });

    const exportsServer = await startExports({
      config,
      log,
      blobs: blobs.store,
      sources: {
        crm: crm.address,
        projects: projects.address,
        capture: capture.address,
        measurements: measurements.address,
        audit: auditServer.address,
      },
      logger: createLogger('exports', logger.level),
      shutdown: cleanup,
    });

    const services: ServiceAddresses = {
      crm: crm.address,
      audit: auditServer.address,
      projects: projects.address,
      webhooks: webhooksServer.address,
      capture: capture.address,
      measurements: measurements.address,
      exports: exportsServer.address,
    };
    const clients = connectServiceClients(services);
    cleanup.push(async () => clients.close());
    const admin = resolveAdminSecret(config.adminSecret, config.dataDir);
    const gateway = await startGateway({
      config,
      log,
      clients,
      adminSecret: admin.secret,
      logger: createLogger('gateway', logger.level),
      shutdown: cleanup,
      ...(blobs.embedded ? { blobs: blobs.embedded } : {}),
    });
    // Presigned URLs of the embedded store point at this server (FIELDOPS_PUBLIC_URL behind a proxy).
    blobs.embedded?.setBaseUrl(
      `${process.env['FIELDOPS_PUBLIC_URL'] ?? `http://${config.host}:${gateway.port}`}/blobs`,
    );
    const demo = await ensureDemoTenant(gateway.identity);
    return {
      url: `http://${config.host}:${gateway.port}`,
      port: gateway.port,
      adminSecret: admin.secret,
      adminSecretGenerated: admin.generated,
      demoToken: demo.token?.secret,
      demoTenantId: demo.tenant.id,
      services,
      stop: () => cleanup.unwind(),
    };
  } catch (err) {
    await cleanup.unwind();
    throw err;
  }
}
