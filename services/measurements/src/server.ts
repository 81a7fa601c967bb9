// The measurements gRPC server: MeasurementService over the store measurements owns. The projects
// service is asked over gRPC whether a project exists, never through its collections.
import type { BlobStore } from '@fieldops/kit/blobs';
import { bindDomain, listenOf, startGrpcServer, type GrpcListen, type GrpcServer } from '@fieldops/kit/grpc';
import type { DocumentStore } from '@fieldops/kit/store';
import { measurements } from '@fieldops/proto';
import { openMeasurementsDomain } from './index.ts';
import { connectGrpcProjects } from '@fieldops/projects/client';
import { tenantDumpBinding } from '@fieldops/kit/domain';
import { MEASUREMENT_COLLECTIONS } from './collections.ts';

export async function startMeasurementsServer(
  options: GrpcListen & {
    store: DocumentStore;
    /** host:port of the projects service's gRPC server. */
    projectsAddress: string;
    /** Where capture files are stored (MeasureCapture reads them). */
    blobs?: BlobStore;
  },
): Promise<GrpcServer> {
  const projects = connectGrpcProjects(options.projectsAddress);
  const handlers = await openMeasurementsDomain({
    store: options.store,
    projects,
    ...(options.blobs ? { blobs: options.blobs } : {}),
  });
  const server = await startGrpcServer({
    ...listenOf(options),
    services: [
      bindDomain(measurements.MeasurementServiceService, handlers),
      tenantDumpBinding('measurements', options.store, MEASUREMENT_COLLECTIONS),
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
