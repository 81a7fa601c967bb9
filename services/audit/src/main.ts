// audit as its own process (its own Deployment): the consumer that appends every write event to
// the tenants' chains, the AuditService gRPC server on HOST:PORT, and /healthz, /readyz and
// /metrics on FIELDOPS_OPS_PORT. `npm start` does not use this file.
import { openEventLog } from '@fieldops/kit/adapters';
import { runServiceProcess } from '@fieldops/kit/process';
import { startAudit } from './start-audit.ts';

await runServiceProcess({
  name: 'audit',
  needs: ['kafkaBrokers'],
  async start({ config, logger, shutdown }) {
    const log = await openEventLog(config);
    shutdown.push(() => log.close());
    await startAudit({ config, log, logger, shutdown, host: config.host, port: config.port });
  },
});
