// exports as its own process (its own Deployment): the ExportService and ReportService gRPC
// server on HOST:PORT, the packager, the outbox relay of its store, and /healthz, /readyz and
// /metrics on FIELDOPS_OPS_PORT. Every service whose records go into an export is dialled at its
// FIELDOPS_<SERVICE>_ADDR (the chart's call graph gives them). `npm start` does not use this file.
import { openEventLog, openBlobStore } from '@fieldops/kit/adapters';
import { ConfigError } from '@fieldops/kit';
import { registerPeerChecks } from '@fieldops/kit/grpc';
import { runServiceProcess } from '@fieldops/kit/process';
import { startExports } from './start-exports.ts';

/** Each exported service and the variable naming its address (spelled out: the chart test reads them). */
const SOURCE_VARIABLES = {
  crm: 'FIELDOPS_CRM_ADDR',
  projects: 'FIELDOPS_PROJECTS_ADDR',
  capture: 'FIELDOPS_CAPTURE_ADDR',
  measurements: 'FIELDOPS_MEASUREMENTS_ADDR',
  audit: 'FIELDOPS_AUDIT_ADDR',
} as const;

function sourcesFromEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const entries = Object.entries(SOURCE_VARIABLES).map(([service, variable]) => [
    service,
    env[variable]?.trim() ?? '',
  ]);
  const missing = Object.entries(SOURCE_VARIABLES)
    .filter(([service]) => !entries.find(([name, address]) => name === service && address))
    .map(([, variable]) => `${variable} is required: an export holds that service's records.`);
  if (missing.length > 0) throw new ConfigError(missing);
  return Object.fromEntries(entries);
}

await runServiceProcess({
  name: 'exports',
  needs: ['kafkaBrokers'],
  async start({ config, logger, shutdown, health }) {
    const sources = sourcesFromEnv(process.env);
    // Each source shows on /readyz (report-only, bounded and cached: see registerPeerChecks).
    shutdown.push(registerPeerChecks(health, sources));
    const blobs = await openBlobStore(config.dataDir);
    if (blobs.embedded) {
      throw new ConfigError([
        'S3_BUCKET is required when exports runs as its own process: archives are stored there.',
      ]);
    }
    shutdown.push(() => blobs.store.close());
    const log = await openEventLog(config);
    shutdown.push(() => log.close());
    await startExports({
      config,
      log,
      blobs: blobs.store,
      sources,
      logger,
      shutdown,
      host: config.host,
      port: config.port,
    });
  },
});
