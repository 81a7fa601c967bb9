// The demo tenant of `npm run cluster -- start`, on its first start, as `npm start` makes it
// (platform/src/main.ts): a tenant with a Manager token shown once, and unless FIELDOPS_DEMO=0 a
// console member and the demo data (platform/src/demo-seed.ts). The split gateway does not create
// it (its identity store is its own), so it is made here through the admin API, like any
// operator's tenant: audited and evented. Run by cli.mjs, which prints what this sends it.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { captureSettingsFromEnv } from '@fieldops/capture';
import { demoApi, seedDemoTenant } from '@fieldops/platform/demo-seed';

const url = process.env['FIELDOPS_CLUSTER_URL']!;
const adminSecret = process.env['FIELDOPS_CLUSTER_ADMIN_SECRET']!;
const marker = process.env['FIELDOPS_CLUSTER_DEMO_FILE']!;

async function admin(path: string, body: unknown): Promise<Record<string, { id: string; secret?: string }>> {
  const res = await fetch(`${url}/admin/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminSecret}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 201)
    throw new Error(`POST /admin/v1${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Record<string, { id: string; secret?: string }>;
}

const tenantId = (await admin('/tenants', { name: 'Demo Drone Co' })).tenant!.id;
const token = (await admin(`/tenants/${tenantId}/tokens`, { role: 'Manager', name: 'Demo Manager token' }))
  .token!.secret!;
// Written before anything is printed: a later start finds the tenant and makes no second one.
writeFileSync(marker, `${JSON.stringify({ tenantId, createdAt: new Date().toISOString() })}\n`);
const lines = [
  `  demo tenant ${tenantId}, Manager token (shown once): ${token}`,
  `  try: curl -H "Authorization: Bearer ${token}" ${url}/api/v1/me`,
];
const fill = process.env['FIELDOPS_DEMO'] !== '0';
if (fill) {
  const password = randomBytes(9).toString('base64url');
  const email = 'manager@demo.fieldops.test';
  await admin(`/tenants/${tenantId}/members`, { name: 'Demo Manager', email, role: 'Manager', password });
  lines.push(`  console: ${url}/console/?tenant=${tenantId}  ${email} / ${password} (shown once)`);
}
process.send?.(lines.join('\n'));

if (fill) {
  const colmap = captureSettingsFromEnv().colmap !== undefined;
  const { photoSurvey } = await seedDemoTenant(demoApi(url, token), { colmap });
  console.log('demo tenant filled: leads, customers, deals, a proposal, an invoice, a measured stockpile');
  await photoSurvey;
  if (photoSurvey) console.log('demo drone-photo survey measured');
}
