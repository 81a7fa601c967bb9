// `npm start`: the whole platform on embedded defaults. Prints where it listens and, on the
// first start, the operator secret and a Manager token for the demo tenant.
import { loadConfig } from '@fieldops/kit/config';
import { createLogger } from '@fieldops/kit/log';
import { startPlatform } from './platform.js';

const config = loadConfig();
const logger = createLogger('fieldops', config.logLevel);
const platform = await startPlatform(config, logger);

const lines = [
  `fieldops is listening on ${platform.url} (data in ${config.dataDir})`,
  `  contract:  ${platform.url}/api/v1/openapi.json`,
  `  health:    ${platform.url}/healthz`,
];
if (platform.adminSecretGenerated) {
  lines.push(
    `  operator secret for /admin/v1 (generated, kept in ${config.dataDir}/admin-secret): ${platform.adminSecret}`,
  );
}
if (platform.demoToken) {
  lines.push(
    `  demo tenant ${platform.demoTenantId}, Manager token (shown once): ${platform.demoToken}`,
    `  try: curl -H "Authorization: Bearer ${platform.demoToken}" ${platform.url}/api/v1/me`,
  );
}
console.log(lines.join('\n'));

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    platform.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
