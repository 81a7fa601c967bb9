// `npm start`: the whole platform on embedded defaults. Prints where it listens and, on the
// first start, the operator secret and a Manager token for the demo tenant.
import { captureSettingsFromEnv } from '@fieldops/capture';
import { loadConfig, createLogger } from '@fieldops/kit';
import { describeOwnGrants, logPermissionDenials, permissionMode } from '@fieldops/kit/process';
import { randomBytes } from 'node:crypto';
import { demoApi, seedDemoTenant } from './demo-seed.ts';
import { startPlatform } from './platform.ts';

const config = loadConfig();
const logger = createLogger('fieldops', config.logLevel);
// Every kind in one process: `npm start` (scripts/start-platform.mjs) runs it under node --permission
// with the union of the kinds' grants (scripts/permissions.mjs unionOf), and it says so at start;
// run as `node platform/src/main.ts` it is unfenced and says that (docs/security.md, "npm start").
logPermissionDenials(logger, 'platform');
const platform = await startPlatform(config, logger);

const lines = [
  `fieldops is listening on ${platform.url} (data in ${config.dataDir})`,
  `  contract:  ${platform.url}/api/v1/openapi.json`,
  `  health:    ${platform.url}/healthz`,
  permissionMode() === 'off'
    ? '  permissions: none enforced (started without --permission; `npm start` runs it fenced, as the deployed kinds run) (docs/security.md)'
    : `  permissions: ${permissionMode() === 'audit' ? 'audited, nothing refused' : 'enforced'}: every kind in one process, so the union of their grants: ${describeOwnGrants()} (docs/security.md)`,
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
// The first start fills the demo tenant (FIELDOPS_DEMO=0 leaves it empty) and adds a member who
// can log in to the console; both through the public APIs, so everything is audited.
if (platform.demoToken && process.env['FIELDOPS_DEMO'] !== '0') {
  const password = randomBytes(9).toString('base64url');
  const member = await fetch(`${platform.url}/admin/v1/tenants/${platform.demoTenantId}/members`, {
    method: 'POST',
    headers: { authorization: `Bearer ${platform.adminSecret}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Demo Manager',
      email: 'manager@demo.fieldops.test',
      role: 'Manager',
      password,
    }),
  });
  if (!member.ok) throw new Error(`demo member not added: ${await member.text()}`);
  lines.push(
    `  console: ${platform.url}/console/?tenant=${platform.demoTenantId}  manager@demo.fieldops.test / ${password} (shown once)`,
    `  filling the demo tenant in the background (paced by the API's write allowance, about a minute)…`,
  );
  const colmap = captureSettingsFromEnv().colmap !== undefined;
  if (!colmap) {
    lines.push(
      '  demo drone-photo project skipped: COLMAP does not run here (install it: apt-get install colmap; or point FIELDOPS_COLMAP_BIN at it)',
    );
  }
  seedDemoTenant(demoApi(platform.url, platform.demoToken), { colmap }).then(
    ({ photoSurvey }) => {
      console.log(
        'demo tenant filled: leads, customers, deals, a proposal, an invoice, a measured stockpile',
      );
      photoSurvey?.then(
        () => console.log('demo drone-photo survey measured (project "North yard stockpile, drone photos")'),
        (error: unknown) =>
          console.error(`demo drone-photo survey not measured: ${(error as Error).message}`),
      );
    },
    (error: unknown) => console.error(`demo tenant not filled completely: ${(error as Error).message}`),
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
