// projects as its own process (its own Deployment): the ProjectService gRPC server on HOST:PORT,
// the outbox relay of the store it owns, and /healthz, /readyz and /metrics on FIELDOPS_OPS_PORT.
// crm is dialled at FIELDOPS_CRM_ADDR. `npm start` does not use this file: it runs every service
// in one process.
import { openEventLog } from '@fieldops/kit/adapters';
import { ConfigError } from '@fieldops/kit';
import { registerPeerChecks } from '@fieldops/kit/grpc';
import { openRelayedStore, runServiceProcess } from '@fieldops/kit/process';
import { startProjectsServer } from './server.ts';

await runServiceProcess({
  name: 'projects',
  needs: ['kafkaBrokers'],
  async start({ config, logger, shutdown, health }) {
    const crmAddress = process.env['FIELDOPS_CRM_ADDR'];
    if (!crmAddress) {
      throw new ConfigError([
        'FIELDOPS_CRM_ADDR is required: projects reads customers and opens deals in crm.',
      ]);
    }
    // crm shows on /readyz (report-only, bounded and cached: see registerPeerChecks).
    shutdown.push(registerPeerChecks(health, { crm: crmAddress }));
    const log = await openEventLog(config);
    shutdown.push(() => log.close());
    const store = await openRelayedStore(config, 'projects', { log, logger, shutdown });
    const server = await startProjectsServer({
      store,
      logger,
      crmAddress,
      log,
      host: config.host,
      port: config.port,
    });
    shutdown.push(() => server.stop());
  },
});
