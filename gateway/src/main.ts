// The gateway as its own process (its own Deployment): the HTTP edge on HOST:PORT, dialing each
// service at FIELDOPS_<SERVICE>_ADDR, with /healthz, /readyz and /metrics on FIELDOPS_OPS_PORT.
// `npm start` does not use this file: it runs the gateway and every service in one process.
import { openEventLog } from '@fieldops/kit/adapters';
import { registerPeerChecks } from '@fieldops/kit/grpc';
import { runServiceProcess } from '@fieldops/kit/process';
import { connectServiceClients } from './clients.ts';
import { serviceAddressesFromEnv } from './service-addresses.ts';
import { startGateway } from './start-gateway.ts';

await runServiceProcess({
  name: 'gateway',
  // The identity store's events go to audit through the log; every replica shares fast state.
  needs: ['kafkaBrokers', 'redisUrl', 'adminSecret'],
  async start({ config, logger, shutdown, health }) {
    const addresses = serviceAddressesFromEnv();
    // Each service it calls shows on /readyz (report-only: see registerPeerChecks).
    shutdown.push(registerPeerChecks(health, { ...addresses }));
    const log = await openEventLog(config);
    shutdown.push(() => log.close());
    const clients = connectServiceClients(addresses);
    shutdown.push(() => clients.close());
    await startGateway({ config, log, clients, adminSecret: config.adminSecret, logger, shutdown });
  },
});
