// The capture gRPC server: the CaptureService RPCs over the store capture owns. projects is
// reached over gRPC (does the project exist for this caller), never through its collections.
import type { BlobStore } from '@fieldops/kit/blobs/port';
import { bindDomain } from '@fieldops/kit/grpc/domain-binding';
import { startGrpcServer, type GrpcServer } from '@fieldops/kit/grpc/server';
import type { Logger } from '@fieldops/kit/log';
import type { DocumentStore } from '@fieldops/kit/store/port';
import { capture } from '@fieldops/proto';
import { openCaptureDomain } from './index.js';
import { connectGrpcProjects } from './projects/projects.grpc.js';
import { tenantDumpBinding } from '@fieldops/kit/domain/tenant-dump';
import { CAPTURE_COLLECTIONS } from './collections.js';
import { captureSettingsFromEnv, type CaptureSettings } from './settings.js';

export async function startCaptureServer(options: {
  store: DocumentStore;
  blobs: BlobStore;
  logger: Logger;
  /** host:port of the projects gRPC server. */
  projectsAddress: string;
  settings?: CaptureSettings;
  host?: string;
  port?: number;
}): Promise<GrpcServer> {
  const projects = connectGrpcProjects(options.projectsAddress);
  const handlers = await openCaptureDomain({
    store: options.store,
    blobs: options.blobs,
    projects,
    settings: options.settings ?? captureSettingsFromEnv(),
  });
  const server = await startGrpcServer({
    host: options.host,
    port: options.port,
    logger: options.logger,
    services: [
      bindDomain(capture.CaptureServiceService, handlers),
      tenantDumpBinding('capture', options.store, CAPTURE_COLLECTIONS),
    ],
  });
  return {
    ...server,
    stop: async () => {
      await server.stop();
      projects.close();
    },
  };
}
