// capture as its own process (its own Deployment): the CaptureService gRPC server on HOST:PORT,
// the outbox relay of the store it owns, and /healthz, /readyz and /metrics on FIELDOPS_OPS_PORT.
// projects is dialled at FIELDOPS_PROJECTS_ADDR. The reconstruction workers are another process
// kind (worker/main.ts). `npm start` does not use this file: it runs every service in one process.
import { openEventLog, openBlobStore } from '@fieldops/kit/adapters';
import { ConfigError } from '@fieldops/kit';
import { registerPeerChecks } from '@fieldops/kit/grpc';
import { openRelayedStore, runServiceProcess } from '@fieldops/kit/process';
import { startCaptureServer } from './server.ts';
import { captureSettingsFromEnv } from './settings.ts';

await runServiceProcess({
  name: 'capture',
  needs: ['kafkaBrokers'],
  async start({ config, logger, shutdown, health }) {
    // Which photogrammetry engines exist is FIELDOPS_PHOTOGRAMMETRY_ENGINES' to say (this image
    // carries no COLMAP; the workers' does), read before anything is opened.
    const settings = captureSettingsFromEnv(process.env, { runsEngines: false });
    const projectsAddress = process.env['FIELDOPS_PROJECTS_ADDR'];
    if (!projectsAddress) {
      throw new ConfigError(['FIELDOPS_PROJECTS_ADDR is required: every capture belongs to a project.']);
    }
    // Its peer shows on /readyz (report-only, bounded and cached: see registerPeerChecks).
    shutdown.push(registerPeerChecks(health, { projects: projectsAddress }));
    const blobs = await openBlobStore(config.dataDir);
    if (blobs.embedded) {
      throw new ConfigError([
        'S3_BUCKET is required when capture runs as its own process: clients upload straight to the bucket.',
      ]);
    }
    shutdown.push(() => blobs.store.close());
    const log = await openEventLog(config);
    shutdown.push(() => log.close());
    const store = await openRelayedStore(config, 'capture', { log, logger, shutdown });
    const server = await startCaptureServer({
      store,
      blobs: blobs.store,
      log,
      logger,
      projectsAddress,
      settings,
      host: config.host,
      port: config.port,
    });
    shutdown.push(() => server.stop());
  },
});
