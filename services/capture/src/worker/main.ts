// Reconstruction workers as their own process kind (their own Deployment, scaled alone): consume
// `run.queued` jobs from the event log in one consumer group, N at a time per process. They hold
// no store: runs are claimed, renewed, completed, failed and released through capture's
// RunLeaseService (FIELDOPS_CAPTURE_ADDR), quantities go to measurements
// (FIELDOPS_MEASUREMENTS_ADDR), and files are read and written in the bucket (S3). `npm start`
// runs the workers inside the platform instead, on capture's store directly.
import { openEventLog, openBlobStore } from '@fieldops/kit/adapters';
import { ConfigError } from '@fieldops/kit';
import { registerPeerChecks } from '@fieldops/kit/grpc';
import { runServiceProcess } from '@fieldops/kit/process';
import { captureSettingsFromEnv } from '../settings.ts';
import { drainMsFromEnv, enginesFor, leaseMsFromEnv, workerConcurrencyFromEnv } from './engines.ts';
import { connectGrpcQuantities } from './quantities.grpc.ts';
import { startReconstructionWorker } from './reconstruction-worker.ts';
import { workerPeersFromEnv } from './peers.ts';
import { connectGrpcRunLeases } from './run-leases.grpc.ts';

await runServiceProcess({
  name: 'capture-worker',
  needs: ['kafkaBrokers'],
  async start({ config, logger, shutdown, health }) {
    // The engines this worker must be able to run (photogrammetry-engines.ts): refused at start if not.
    const settings = captureSettingsFromEnv(process.env, { runsEngines: true });
    const leaseMs = leaseMsFromEnv();
    const drainMs = drainMsFromEnv();
    const peers = workerPeersFromEnv();
    // capture and measurements show on /readyz (report-only, bounded and cached: see registerPeerChecks).
    shutdown.push(registerPeerChecks(health, { ...peers }));
    const blobs = await openBlobStore(config.dataDir);
    if (blobs.embedded) {
      throw new ConfigError([
        'S3_BUCKET is required for separate workers: they read the uploads from the bucket.',
      ]);
    }
    shutdown.push(() => blobs.store.close());
    const leases = connectGrpcRunLeases(peers.capture);
    shutdown.push(async () => leases.close());
    const quantities = connectGrpcQuantities(peers.measurements);
    shutdown.push(async () => quantities.close());
    const log = await openEventLog(config);
    shutdown.push(() => log.close());
    const worker = await startReconstructionWorker({
      leases,
      blobs: blobs.store,
      log,
      logger,
      engines: enginesFor(settings, { scratchDir: config.scratchDir }),
      concurrency: workerConcurrencyFromEnv(),
      ...(leaseMs ? { leaseMs } : {}),
      ...(drainMs !== undefined ? { drainMs } : {}),
      quantities,
    });
    shutdown.push(() => worker.stop());
  },
});
