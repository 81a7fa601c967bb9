// The capture service as the one-process platform runs it: its gRPC server over the store it owns
// and reconstruction workers in the same process, on the in-process RunLeases over that store (the
// rules capture's RunLeaseService serves to worker processes). In a cluster the server (main.ts) and the
// workers (worker/main.ts) are separate Deployments, and the workers scale alone.
import type { BlobStore } from '@fieldops/kit/blobs';
import type { EventLog } from '@fieldops/kit/events';
import type { GrpcServer } from '@fieldops/kit/grpc';
import type { Logger } from '@fieldops/kit';
import type { ShutdownStack } from '@fieldops/kit/process';
import type { DocumentStore } from '@fieldops/kit/store';
import { storeRunLeases } from './runs/run-leases.local.ts';
import { startCaptureServer } from './server.ts';
import { captureSettingsFromEnv, type CaptureSettings } from './settings.ts';
import {
  drainMsFromEnv,
  enginesFor,
  inProcessWorkersFromEnv,
  leaseMsFromEnv,
  workerConcurrencyFromEnv,
} from './worker/engines.ts';
import { connectGrpcQuantities } from './worker/quantities.grpc.ts';
import { startReconstructionWorker } from './worker/reconstruction-worker.ts';

export async function startCapture(options: {
  store: DocumentStore;
  blobs: BlobStore;
  log: EventLog;
  projectsAddress: string;
  /** host:port of the measurements service, where measured quantities are recorded. */
  measurementsAddress?: string;
  logger: Logger;
  shutdown: ShutdownStack;
  settings?: CaptureSettings;
  /** Where the in-process workers' COLMAP runs make their workspaces (config.scratchDir). */
  scratchDir?: string | undefined;
}): Promise<GrpcServer> {
  // With in-process workers this process runs the engines too, and must be able to run each one.
  const workers = inProcessWorkersFromEnv();
  const settings = options.settings ?? captureSettingsFromEnv(process.env, { runsEngines: workers });
  const server = await startCaptureServer({ ...options, settings });
  options.shutdown.push(() => server.stop());
  if (!workers) return server;
  const leaseMs = leaseMsFromEnv();
  const drainMs = drainMsFromEnv();
  const quantities = options.measurementsAddress
    ? connectGrpcQuantities(options.measurementsAddress)
    : undefined;
  if (quantities) options.shutdown.push(async () => quantities.close());
  const worker = await startReconstructionWorker({
    ...(quantities ? { quantities } : {}),
    leases: storeRunLeases(options.store),
    blobs: options.blobs,
    log: options.log,
    logger: options.logger,
    engines: enginesFor(settings, { scratchDir: options.scratchDir }),
    concurrency: workerConcurrencyFromEnv(),
    ...(leaseMs ? { leaseMs } : {}),
    ...(drainMs !== undefined ? { drainMs } : {}),
  });
  options.shutdown.push(() => worker.stop());
  return server;
}
