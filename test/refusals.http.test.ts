// The refusals the spec names, through HTTP: what a narrowing map leaves out is out_of_scope
// (never read_only), read_only belongs to read-only roles; a malformed boolean is field_invalid;
// an existing project with nothing measured answers 200, not 404 (docs/decisions.md).
import { describe, expect, it } from '@jest/globals';
import { suiteTenant } from './support/suite-tenant.ts';
import { newCustomer, newProject } from './support/projects.ts';

const { platform, api, tenantId } = await suiteTenant('Refusals Co');
const customerId = await newCustomer(api, 'Refusals Customer');

describe('scope refusals', () => {
  it('answers out_of_scope with required to a Manager token narrowed to {lead: [read]} creating a lead', async () => {
    const narrowed = await platform.token(tenantId, { role: 'Manager', permissions: { lead: ['read'] } });
    const reply = await narrowed.api.post('/leads', { name: 'Narrow Lead' });
    expect([reply.status, reply.body.code]).toEqual([403, 'out_of_scope']);
    expect(reply.body.required).toEqual({ action: 'create', kind: 'lead' });
    expect((await narrowed.api.get('/leads')).status).toBe(200);
    expect((await api.get('/leads')).body.items).toEqual([]);
  });

  it('answers out_of_scope to the narrowed token on the lifecycle call, and read_only to a Viewer', async () => {
    const project = await newProject(api, customerId);
    const narrowed = await platform.token(tenantId, { role: 'Manager', permissions: { job: ['read'] } });
    const refused = await narrowed.api.post(`/projects/${project.id}/lifecycle`, { trigger: 'hold' });
    expect([refused.status, refused.body.code]).toEqual([403, 'out_of_scope']);
    expect(refused.body.required).toEqual({ action: 'update', kind: 'job' });
    const viewer = await platform.token(tenantId, { role: 'Viewer' });
    const readOnly = await viewer.api.post(`/projects/${project.id}/lifecycle`, { trigger: 'hold' });
    expect([readOnly.status, readOnly.body.code]).toEqual([403, 'read_only']);
    expect(readOnly.body.required).toEqual({ action: 'update', kind: 'job' });
    expect((await api.get(`/projects/${project.id}`)).body.project).toMatchObject({ status: 'planned' });
  });
});

describe('malformed booleans', () => {
  it('answers field_invalid (not field_invalid_enum) to GET /deals?open=maybe', async () => {
    const reply = await api.get('/deals?open=maybe');
    expect([reply.status, reply.body.code]).toEqual([400, 'field_invalid']);
    expect(reply.body.error).toMatch(/open.*true or false/);
    expect((await api.get('/deals?open=true')).status).toBe(200);
  });
});

describe('quantities of a project nothing has been measured on', () => {
  it('answers 200 with no regions, regionCount 0 and a rollup that says nothing was measured', async () => {
    const project = await newProject(api, customerId);
    const reply = await api.get(`/projects/${project.id}/quantities`);
    expect(reply.status).toBe(200);
    expect(reply.body.quantities).toMatchObject({
      measured: false,
      regions: [],
      regionCount: 0,
      rollup: { measured: false },
    });
    expect((await api.get('/projects/prj_missing/quantities')).body.code).toBe('not_found');
  });
});
