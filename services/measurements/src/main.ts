// measurements as its own process (its own Deployment): the MeasurementService gRPC server on
// HOST:PORT, the outbox relay of the store it owns, and /healthz, /readyz and /metrics on
// FIELDOPS_OPS_PORT. projects is dialled at FIELDOPS_PROJECTS_ADDR. `npm start` does not use this
// file: it runs every service in one process.
import { openEventLog, openBlobStore } from '@fieldops/kit/adapters';
import { ConfigError } from '@fieldops/kit';
import { registerPeerChecks } from '@fieldops/kit/grpc';
import { openRelayedStore, runServiceProcess } from '@fieldops/kit/process';
import { startMeasurementsServer } from './server.ts';

await runServiceProcess({
  name: 'measurements',
  needs: ['kafkaBrokers'],
  async start({ config, logger, shutdown, health }) {
    const projectsAddress = process.env['FIELDOPS_PROJECTS_ADDR'];
    if (!projectsAddress) {
      throw new ConfigError([
        'FIELDOPS_PROJECTS_ADDR is required: measurements checks projects in the projects service.',
      ]);
    }
    // Its peer shows on /readyz (report-only, bounded and cached: see registerPeerChecks).
    shutdown.push(registerPeerChecks(health, { projects: projectsAddress }));
    const log = await openEventLog(config);
    shutdown.push(() => log.close());
    const store = await openRelayedStore(config, 'measurements', { log, logger, shutdown });
    const blobs = await openBlobStore(config.dataDir);
    shutdown.push(() => blobs.store.close());
    const server = await startMeasurementsServer({
      store,
      logger,
      projectsAddress,
      blobs: blobs.store,
      host: config.host,
      port: config.port,
    });
    shutdown.push(() => server.stop());
  },
});
