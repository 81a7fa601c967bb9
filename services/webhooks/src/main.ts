// webhooks as its own process (its own Deployment): the WebhookService gRPC server on HOST:PORT,
// the dispatcher, the outbox relay of its store, and /healthz, /readyz and /metrics on
// FIELDOPS_OPS_PORT. `npm start` does not use this file.
import { openEventLog } from '@fieldops/kit/adapters';
import { runServiceProcess } from '@fieldops/kit/process';
import { startWebhooks } from './start-webhooks.ts';

await runServiceProcess({
  name: 'webhooks',
  needs: ['kafkaBrokers'],
  async start({ config, logger, shutdown }) {
    const log = await openEventLog(config);
    shutdown.push(() => log.close());
    await startWebhooks({ config, log, logger, shutdown, host: config.host, port: config.port });
  },
});
