// Reconstruction workers as their own process kind (their own Deployment, scaled alone): consume
// `run.queued` jobs from the event log in one consumer group, N at a time per process, over
// capture's store and the blob store. `npm start` runs the workers inside the platform instead.
import { openEventLog, openServiceStore } from '@fieldops/kit/adapters';
import { openBlobStore } from '@fieldops/kit/blobs/open-blob-store';
import { ConfigError } from '@fieldops/kit/config';
import { runServiceProcess } from '@fieldops/kit/process/service-process';
import { defineCaptureCollections } from '../collections.js';
import { captureSettingsFromEnv } from '../settings.js';
import { enginesFor, workerConcurrencyFromEnv } from './engines.js';
import { connectGrpcQuantities } from './quantities.grpc.js';
import { startReconstructionWorker } from './reconstruction-worker.js';

await runServiceProcess({
  name: 'capture-worker',
  needs: ['kafkaBrokers', 'mongodbUri'],
  async start({ config, logger, shutdown }) {
    const settings = captureSettingsFromEnv();
    const measurementsAddress = process.env['FIELDOPS_MEASUREMENTS_ADDR'];
    if (!measurementsAddress) {
      throw new ConfigError([
        'FIELDOPS_MEASUREMENTS_ADDR is required: workers record measured quantities there.',
      ]);
    }
    const quantities = connectGrpcQuantities(measurementsAddress);
    shutdown.push(async () => quantities.close());
    const log = await openEventLog(config);
    shutdown.push(() => log.close());
    const store = await openServiceStore(config, 'capture');
    shutdown.push(() => store.close());
    await defineCaptureCollections(store);
    const blobs = await openBlobStore(config.dataDir);
    if (blobs.embedded) {
      throw new ConfigError([
        'S3_BUCKET is required for separate workers: they read the uploads from the bucket.',
      ]);
    }
    shutdown.push(() => blobs.store.close());
    const worker = await startReconstructionWorker({
      store,
      blobs: blobs.store,
      log,
      logger,
      engines: enginesFor(settings),
      concurrency: workerConcurrencyFromEnv(),
      quantities,
    });
    shutdown.push(() => worker.stop());
  },
});
