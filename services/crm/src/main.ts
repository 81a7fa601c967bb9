// crm as its own process (its own Deployment): the CrmService gRPC server on HOST:PORT, the
// outbox relay of the store it owns, and /healthz, /readyz and /metrics on FIELDOPS_OPS_PORT.
// `npm start` does not use this file: it runs every service in one process.
import { openEventLog } from '@fieldops/kit/adapters';
import { openRelayedStore, runServiceProcess } from '@fieldops/kit/process';
import { startCrmServer } from './server.ts';

await runServiceProcess({
  name: 'crm',
  needs: ['kafkaBrokers'],
  async start({ config, logger, shutdown }) {
    const log = await openEventLog(config);
    shutdown.push(() => log.close());
    const store = await openRelayedStore(config, 'crm', { log, logger, shutdown });
    const server = await startCrmServer({ store, logger, host: config.host, port: config.port });
    shutdown.push(() => server.stop());
  },
});
