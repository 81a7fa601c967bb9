// The capture gRPC server: the CaptureService RPCs over the store capture owns, and the
// RunLeaseService through which separate worker processes work on runs without that store.
// projects is reached over gRPC (does the project exist for this caller), never through its collections.
import type { BlobStore } from '@fieldops/kit/blobs';
import type { EventLog } from '@fieldops/kit/events';
import { bindDomain, listenOf, startGrpcServer, type GrpcListen, type GrpcServer } from '@fieldops/kit/grpc';
import type { DocumentStore } from '@fieldops/kit/store';
import { capture, runLeases } from '@fieldops/proto';
import { createRunLeaseHandlers } from './handlers.ts';
import { openCaptureDomain } from './index.ts';
import { connectGrpcProjects } from '@fieldops/projects/client';
import { startSceneContentProjection } from './designs/scene-content.projection.ts';
import { tenantDumpBinding } from '@fieldops/kit/domain';
import { CAPTURE_COLLECTIONS } from './collections.ts';
import { storeRunLeases } from './runs/run-leases.local.ts';
import { exportRunsWaiting } from './runs/runs-waiting.metric.ts';
import { captureSettingsFromEnv, type CaptureSettings } from './settings.ts';

export async function startCaptureServer(
  options: GrpcListen & {
    store: DocumentStore;
    blobs: BlobStore;
    /** Capture's event log: the server follows its own scene.ready events to report deliverables. */
    log: EventLog;
    /** host:port of the projects gRPC server. */
    projectsAddress: string;
    settings?: CaptureSettings;
  },
): Promise<GrpcServer> {
  const projects = connectGrpcProjects(options.projectsAddress);
  const handlers = await openCaptureDomain({
    store: options.store,
    blobs: options.blobs,
    projects,
    // The server only decides what is accepted; the workers run the engines.
    settings: options.settings ?? captureSettingsFromEnv(process.env, { runsEngines: false }),
  });
  const server = await startGrpcServer({
    ...listenOf(options),
    services: [
      bindDomain(capture.CaptureServiceService, handlers),
      bindDomain(runLeases.RunLeaseServiceService, createRunLeaseHandlers(storeRunLeases(options.store))),
      tenantDumpBinding('capture', options.store, CAPTURE_COLLECTIONS),
    ],
  });
  const sceneContent = await startSceneContentProjection(options.log, { store: options.store, projects });
  const unexportRunsWaiting = exportRunsWaiting(options.store);
  return {
    ...server,
    stop: async () => {
      unexportRunsWaiting();
      await sceneContent.stop();
      await server.stop();
      projects.close();
    },
  };
}
