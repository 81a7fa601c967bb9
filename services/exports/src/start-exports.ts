// The exports service as it runs anywhere: its store (with the outbox relay for its own events),
// the packager that reads each record-owning service over gRPC and the blob store, and the gRPC
// server. Used by the one-process platform and by the service's own process alike.
import type { BlobStore } from '@fieldops/kit/blobs';
import { listenOf, type GrpcServer } from '@fieldops/kit/grpc';
import { type ServiceStartOptions, openRelayedStore } from '@fieldops/kit/process';
import { join } from 'node:path';
import { exportSettingsFromEnv } from './exports/export-settings.ts';
import { openExportsDomain } from './index.ts';
import { closeTenantSources, connectTenantSources } from './packager/tenant-sources.ts';
import { startExportsServer } from './server.ts';

export async function startExports(
  options: ServiceStartOptions & {
    blobs: BlobStore;
    /** Service name → gRPC host:port of each service whose records go into an export. */
    sources: Readonly<Record<string, string>>;
  },
): Promise<GrpcServer> {
  const { config, log, logger, shutdown } = options;
  const store = await openRelayedStore(config, 'exports', { log, logger, shutdown });
  // Archives are staged whole before they are stored: on the volume sized for them
  // (FIELDOPS_SCRATCH_DIR) when the deployment gives one, else beside the data.
  const settings = exportSettingsFromEnv(join(config.scratchDir ?? config.dataDir, 'export-work'));
  const domain = await openExportsDomain({ store, blobs: options.blobs, settings });
  const sources = connectTenantSources(options.sources);
  shutdown.push(async () => closeTenantSources(sources));
  const packager = await domain.startPackager(sources, logger);
  shutdown.push(() => packager.stop());
  const server = await startExportsServer({
    exports: domain.exports,
    reports: domain.reports,
    ...listenOf(options),
  });
  shutdown.push(() => server.stop());
  return server;
}
