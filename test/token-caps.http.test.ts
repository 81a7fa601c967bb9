// Budgets that minting tokens cannot multiply (docs/security.md, "Budgets and tokens"): active
// tokens per member and per tenant are capped, through the portal and the admin API alike, and an
// hourly ceiling per consequence kind holds across all of a tenant's tokens. Stating regions and
// remeasuring are charged to compute ("Bounded geometry"), shown here against the tenant's ceiling.
import { describe, expect, it } from '@jest/globals';
import { captureProject } from './support/capture.ts';
import { newMember, portalSession, type Body } from './support/harness.ts';
import { suiteTenant } from './support/suite-tenant.ts';

const PER_MEMBER = 2;
const PER_TENANT = 5;
const TENANT_COMPUTE = 3;

const { platform, tenantId } = await suiteTenant('Caps Co', {
  FIELDOPS_TOKENS_PER_MEMBER: String(PER_MEMBER),
  FIELDOPS_TOKENS_PER_TENANT: String(PER_TENANT),
  FIELDOPS_TENANT_BUDGET_COMPUTE: String(TENANT_COMPUTE),
});
// suiteTenant issued the tenant's Manager token: one of PER_TENANT.

const portalIssue = (headers: Record<string, string>, body: Body) =>
  fetch(`${platform.url}/api/portal/tokens`, { method: 'POST', headers, body: JSON.stringify(body) });

describe('active API tokens are capped', () => {
  it('refuses a member a token past the per-member cap in the portal, and frees a place on revoke', async () => {
    const headers = await portalSession(platform, tenantId, { role: 'Staff', email: 'minter@caps.test' });
    const ids: string[] = [];
    for (let n = 0; n < PER_MEMBER; n++) {
      const issued = await portalIssue(headers, { role: 'Staff' });
      expect(issued.status).toBe(201);
      ids.push(((await issued.json()) as { token: { id: string } }).token.id);
    }
    const refused = await portalIssue(headers, { role: 'Staff' });
    expect(refused.status).toBe(409);
    const body = (await refused.json()) as Body;
    expect(body).toMatchObject({ ok: false, code: 'conflict', limit: PER_MEMBER });
    expect(body.error).toMatch(
      new RegExp(`already holds ${PER_MEMBER} active API tokens, the cap of ${PER_MEMBER}`),
    );
    const revoke = await fetch(`${platform.url}/api/portal/tokens/${ids[0]}/revoke`, {
      method: 'POST',
      headers,
    });
    expect(revoke.status).toBe(200);
    expect((await portalIssue(headers, { role: 'Staff' })).status).toBe(201);
  });

  it('holds the operator to the caps too, per member and per tenant', async () => {
    const memberId = await newMember(platform, tenantId, 'bound@caps.test');
    for (let n = 0; n < PER_MEMBER; n++) {
      const issued = await platform.admin.post(`/tenants/${tenantId}/tokens`, { role: 'Staff', memberId });
      expect(issued.status).toBe(201);
    }
    const perMember = await platform.admin.post(`/tenants/${tenantId}/tokens`, { role: 'Staff', memberId });
    expect(perMember.status).toBe(409);
    expect(perMember.body.error).toMatch(`Member ${memberId} already holds ${PER_MEMBER}`);
    // 1 (suite) + 2 (portal member, one revoked) + 2 (bound) = 5 active: the tenant is full.
    const perTenant = await platform.admin.post(`/tenants/${tenantId}/tokens`, { role: 'Viewer' });
    expect(perTenant.status).toBe(409);
    expect(perTenant.body).toMatchObject({ code: 'conflict', limit: PER_TENANT });
    expect(perTenant.body.error).toMatch(`This tenant already holds ${PER_TENANT} active API tokens`);
  });
});

describe('the hourly ceiling per consequence kind across all of a tenant’s tokens', () => {
  it('answers 429 naming the kind once the tenant has spent it, whichever token asks; /me shows it', async () => {
    const other = await platform.tenant('Ceiling Co');
    const tokens = [other.api];
    for (let n = 0; n < 2; n++) tokens.push((await platform.token(other.tenantId, { role: 'Manager' })).api);
    const lead = await other.api.post('/leads', { name: 'Compute Carl', message: 'Selling the house.' });
    expect(lead.status).toBe(201);
    const qualify = `/leads/${(lead.body.lead as { id: string }).id}/qualify` as const;
    // Each token is far within its own budget (20 per hour); together they reach the tenant's 3.
    for (let n = 0; n < TENANT_COMPUTE; n++) expect((await tokens[n % 3]!.post(qualify)).status).toBe(200);
    for (const api of tokens) {
      const refused = await api.post(qualify);
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({
        code: 'rate_limited',
        budget: 'compute',
        limit: TENANT_COMPUTE,
        budgetScope: 'tenant',
      });
      expect(refused.body.error).toMatch(
        /This tenant has, across all its tokens, spent its compute budget of 3/,
      );
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    const me = await tokens[2]!.get('/me');
    expect(me.body).toMatchObject({
      limits: { tenantBudgetsPerHour: { compute: TENANT_COMPUTE } },
      tenantBudgets: { compute: { limit: TENANT_COMPUTE, used: TENANT_COMPUTE, remaining: 0 } },
      budgets: { compute: { used: 1 } },
    });
  });
});

describe('stating regions and remeasuring spend compute, a dry run of regions too', () => {
  it('charges each to the compute budget and answers 429 naming compute once it is spent', async () => {
    const yard = await platform.tenant('Regions Co');
    const projectId = await captureProject(yard.api, 'Compute Yard');
    const put = (headers: Record<string, string> = {}) =>
      yard.api.put(`/projects/${projectId}/regions`, { regions: [] }, { 'If-Match': '*', ...headers });
    expect((await put({ 'x-service-dry-run': '1' })).status).toBe(200);
    expect((await put()).status).toBe(200);
    // Nothing measured yet: a conflict, but the measuring was asked for and paid before the answer.
    expect((await yard.api.post(`/projects/${projectId}/quantities/remeasure`)).status).toBe(409);
    const me = await yard.api.get('/me');
    expect(me.body).toMatchObject({ tenantBudgets: { compute: { used: TENANT_COMPUTE } } });
    for (const refused of [await put(), await put({ 'x-service-dry-run': '1' })]) {
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 'rate_limited', budget: 'compute' });
    }
  });
});
