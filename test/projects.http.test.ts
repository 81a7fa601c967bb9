// Projects through HTTP: the spec's Project (job) and endpoint rows 24, 25, 30 and 31.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { eventually, newMember, type Body } from './support/harness.ts';
import { suiteTenant } from './support/suite-tenant.ts';
import { newCustomer, newProject, reportContent, type ProjectBody } from './support/projects.ts';

const { platform, api, tenantId } = await suiteTenant('Projects Co');
const customerId = await newCustomer(api, 'Acme Quarry Ltd');

const project = (reply: { body: Body }) => reply.body.project as ProjectBody;
const items = (reply: { body: Body }) => reply.body.items as (Body & { id: string })[];

describe('POST /projects', () => {
  it('creates the project with its site and a linked deal, under the canonical customer name', async () => {
    const reply = await api.post('/projects', {
      customerId,
      customerName: 'acme quarry (typo)',
      siteAddress: '1 Pit Road, Leeds',
      geo: { lat: 53.8, lng: -1.55 },
      accessNotes: 'Gate code 1234',
      ownerName: 'Dana',
    });
    expect(reply.status).toBe(201);
    const created = project(reply);
    expect(created).toMatchObject({
      customerId,
      customerName: 'Acme Quarry Ltd',
      name: '1 Pit Road, Leeds',
      status: 'planned',
      vertical: 'survey',
      siteAddress: '1 Pit Road, Leeds',
      ownerName: 'Dana',
      legalTriggers: expect.arrayContaining(['schedule_assigned']),
    });
    expect(created.id).toMatch(/^proj_/);
    expect(reply.body.site).toMatchObject({
      id: created.siteId,
      projectId: created.id,
      customerId,
      address: '1 Pit Road, Leeds',
      geo: { lat: 53.8, lng: -1.55 },
    });
    expect(reply.body.deal).toMatchObject({ id: created.dealId, stage: 'lead', value: { cents: 0 } });
    const deal = await api.get(`/deals/${created.dealId}`);
    expect(deal.status).toBe(200);
    expect((deal.body.deal as Body).customerId).toBe(customerId);
  });

  it('refuses a project-restricted token (403 out_of_scope, nothing made), dry run included', async () => {
    const own = await newProject(api, customerId, { name: 'The one job' });
    const restricted = await platform.token(tenantId, { role: 'Manager', projectIds: [own.id] });
    const before = items(await api.get('/projects?limit=100')).length;
    for (const headers of [{}, { 'x-service-dry-run': '1' }] as Record<string, string>[]) {
      const reply = await restricted.api.post('/projects', { customerId, customerName: 'Acme' }, headers);
      expect(reply.status).toBe(403);
      expect(reply.body).toMatchObject({ code: 'out_of_scope', required: { action: 'create', kind: 'job' } });
      expect(reply.body.error).toMatch(/restricted to 1 existing project.*without a project restriction/);
    }
    expect(items(await api.get('/projects?limit=100'))).toHaveLength(before);
    const capabilities = await restricted.api.get('/capabilities');
    const create = (capabilities.body.endpoints as Body[]).find((e) => e.operationId === 'createProject');
    expect(create).toMatchObject({ allowed: false, refusal: { code: 'out_of_scope' } });
  });

  it('records the create in the audit trail: the project and its site', async () => {
    const created = await newProject(api, customerId, { name: 'Audited job' });
    const entries = await eventually(async () => {
      const reply = await api.get(`/audit?resourceId=${created.id}`);
      const found = reply.body.items as Body[];
      return found.length ? found : undefined;
    });
    expect(entries).toEqual([
      expect.objectContaining({
        action: 'project.created',
        operation: 'createProject',
        resourceKind: 'project',
      }),
    ]);
    const site = await eventually(async () => {
      const found = (await api.get(`/audit?resourceId=${created.siteId}`)).body.items as Body[];
      return found.length ? found : undefined;
    });
    expect(site[0]).toMatchObject({ action: 'site.created' });
  });

  it('takes the vertical when given, else the tenant default', async () => {
    expect((await newProject(api, customerId, { vertical: 'Roofing' })).vertical).toBe('roofing');
    expect((await newProject(api, customerId)).vertical).toBe('survey');
  });

  it('refuses a customer the tenant does not have, and creates nothing', async () => {
    const reply = await api.post('/projects', {
      customerId: 'cus_missing',
      customerName: 'Ghost',
      name: 'Ghost job',
    });
    expect(reply.status).toBe(404);
    expect(reply.body.code).toBe('not_found');
    expect(items(await api.get('/projects?q=Ghost%20job'))).toEqual([]);
  });

  it('requires customerId and customerName', async () => {
    const noName = await api.post('/projects', { customerId });
    expect(noName.status).toBe(400);
    expect(noName.body).toMatchObject({ code: 'field_required', field: 'customerName' });
    const noId = await api.post('/projects', { customerName: 'Acme' });
    expect(noId.body).toMatchObject({ code: 'field_required', field: 'customerId' });
  });

  it('refuses money fields, unknown fields and a bad geo', async () => {
    for (const field of ['contractValue', 'amount', 'status']) {
      const reply = await api.post('/projects', { customerId, customerName: 'Acme', [field]: 1000 });
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ code: 'unknown_field', field });
    }
    const geo = await api.post('/projects', { customerId, customerName: 'Acme', geo: { lat: 91, lng: 0 } });
    expect(geo.body.code).toBe('field_invalid');
    const vertical = await api.post('/projects', {
      customerId,
      customerName: 'Acme',
      vertical: 'Not a slug!',
    });
    expect(vertical.body.code).toBe('field_invalid');
    const json = await api.request('POST', '/projects', { body: '{"customerId":' });
    expect(json.body.code).toBe('invalid_json');
    const array = await api.post('/projects', [customerId]);
    expect(array.body.code).toBe('invalid_body');
  });

  it('replays a keyed create: the same project and the same deal, no second deal', async () => {
    const other = await newCustomer(api, 'Keyed Customer');
    const body = { customerId: other, customerName: 'Keyed', name: 'Keyed job', opId: 'op-proj-1' };
    const first = await api.post('/projects', body);
    const again = await api.post('/projects', body);
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.body.replayed).toBe(true);
    expect(project(again).id).toBe(project(first).id);
    expect(project(again).dealId).toBe(project(first).dealId);
    const deals = await api.get(`/deals?customerId=${other}`);
    expect(items(deals).map((deal) => deal.id)).toEqual([project(first).dealId]);
  });

  it('rehearses with the dry-run header: nothing is created, not even the deal', async () => {
    const other = await newCustomer(api, 'Dry Customer');
    const reply = await api.post(
      '/projects',
      { customerId: other, customerName: 'Dry', name: 'Dry job' },
      { 'x-service-dry-run': '1' },
    );
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ dryRun: true, applied: false });
    expect(reply.body.willDo).toContain('Dry Customer');
    expect(items(await api.get('/projects?q=Dry%20job'))).toEqual([]);
    expect(items(await api.get(`/deals?customerId=${other}`))).toEqual([]);
  });
});

describe('GET /projects and GET /projects/:id', () => {
  let listCustomer: string;
  let solar: ProjectBody;
  let survey: ProjectBody;
  let before: string;

  beforeAll(async () => {
    listCustomer = await newCustomer(api, 'Listing Customer');
    solar = await newProject(api, listCustomer, { name: 'Rooftop Array North', vertical: 'solar' });
    before = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    survey = await newProject(api, listCustomer, { name: 'Stockpile Survey', siteAddress: '9 Quarry Lane' });
  });

  it('lists lean summaries: customer, site and status', async () => {
    const reply = await api.get(`/projects?customerId=${listCustomer}`);
    expect(reply.status).toBe(200);
    expect(items(reply).map((item) => item.id)).toEqual([survey.id, solar.id]);
    expect(items(reply)[0]).toEqual({
      id: survey.id,
      name: 'Stockpile Survey',
      status: 'planned',
      vertical: 'survey',
      customerId: listCustomer,
      customerName: 'Listing Customer',
      siteId: survey.siteId,
      siteAddress: '9 Quarry Lane',
      updatedAt: expect.any(String),
    });
  });

  it('filters by q (name, customer, address), status, vertical and updatedSince', async () => {
    expect(items(await api.get('/projects?q=rooftop%20array')).map((i) => i.id)).toEqual([solar.id]);
    expect(items(await api.get('/projects?q=quarry%20lane')).map((i) => i.id)).toEqual([survey.id]);
    const byCustomer = items(await api.get('/projects?q=listing%20customer')).map((i) => i.id);
    expect(byCustomer.sort()).toEqual([solar.id, survey.id].sort());
    const solarOnly = items(await api.get(`/projects?vertical=solar&customerId=${listCustomer}`));
    expect(solarOnly.map((i) => i.id)).toEqual([solar.id]);
    expect(items(await api.get(`/projects?status=delivered&customerId=${listCustomer}`))).toEqual([]);
    const since = items(await api.get(`/projects?customerId=${listCustomer}&updatedSince=${before}`));
    expect(since.map((i) => i.id)).toEqual([survey.id]);
  });

  it('refuses a q over 200 characters, a bad updatedSince and an unknown parameter', async () => {
    expect((await api.get(`/projects?q=${'x'.repeat(201)}`)).body.code).toBe('field_invalid');
    expect((await api.get('/projects?updatedSince=2026-01-01')).body.code).toBe('field_invalid');
    expect((await api.get('/projects?owner=me')).body.code).toBe('unknown_field');
  });

  it('pages with a cursor', async () => {
    const first = await api.get(`/projects?customerId=${listCustomer}&limit=1`);
    expect(items(first)).toHaveLength(1);
    const second = await api.get(
      `/projects?customerId=${listCustomer}&limit=1&cursor=${String(first.body.nextCursor)}`,
    );
    expect(items(second).map((i) => i.id)).toEqual([solar.id]);
    expect(second.body.nextCursor).toBeNull();
  });

  it('reads one project with its etag; scenes and deliverables are empty until capture has some', async () => {
    const reply = await api.get(`/projects/${survey.id}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      project: { id: survey.id },
      etag: survey.etag,
      scenes: [],
      deliverables: [],
    });
    expect(reply.headers.get('etag')).toBe(`"${survey.etag}"`);
    expect((await api.get('/projects/proj_missing')).status).toBe(404);
  });

  it('shows a project-restricted token its projects only; others are 404', async () => {
    const restricted = await platform.token(tenantId, { role: 'Manager', projectIds: [solar.id] });
    const listed = items(await restricted.api.get('/projects'));
    expect(listed.map((i) => i.id)).toEqual([solar.id]);
    expect((await restricted.api.get(`/projects/${solar.id}`)).status).toBe(200);
    const hidden = await restricted.api.get(`/projects/${survey.id}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body.code).toBe('not_found');
  });
});

describe("the customer's name on projects", () => {
  it("follows crm: a renamed customer's projects show the new name", async () => {
    const renamed = await newCustomer(api, 'Old Name Ltd');
    const created = await newProject(api, renamed, { name: 'Rename job' });
    const reply = await api.patch(`/customers/${renamed}`, { name: 'New Name Ltd' }, { 'if-match': '*' });
    expect(reply.status).toBe(200);
    const shown = await eventually(async () => {
      const read = (await api.get(`/projects/${created.id}`)).body.project as ProjectBody;
      return read.customerName === 'New Name Ltd' ? read : undefined;
    });
    expect(shown.etag).not.toBe(created.etag);
    const listed = items(await api.get(`/projects?customerId=${renamed}`));
    expect(listed.map((item) => item.customerName)).toEqual(['New Name Ltd']);
    expect(items(await api.get('/projects?q=new%20name')).map((item) => item.id)).toEqual([created.id]);
  });
});

describe('PATCH /projects/:id', () => {
  it('amends with a fresh etag and keeps the site in step', async () => {
    const created = await newProject(api, customerId, { siteAddress: 'Old Road 1' });
    const ownerId = await newMember(platform, tenantId, 'owner@projects.test');
    const reply = await api.patch(
      `/projects/${created.id}`,
      { name: 'Renamed', siteAddress: 'New Road 2', ownerId, geo: { lat: 1, lng: 2 } },
      { 'if-match': created.etag },
    );
    expect(reply.status).toBe(200);
    expect(project(reply)).toMatchObject({ name: 'Renamed', siteAddress: 'New Road 2', ownerId });
    expect(project(reply).etag).not.toBe(created.etag);
  });

  it('needs If-Match (428) and refuses a stale one with the current record (409)', async () => {
    const created = await newProject(api, customerId);
    const missing = await api.patch(`/projects/${created.id}`, { name: 'x' });
    expect(missing.status).toBe(428);
    await api.patch(`/projects/${created.id}`, { name: 'first' }, { 'if-match': created.etag });
    const stale = await api.patch(
      `/projects/${created.id}`,
      { name: 'second' },
      { 'if-match': created.etag },
    );
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('conflict');
    expect((stale.body.current as Body).name).toBe('first');
  });

  it('refuses status and money fields, an empty body and an unknown project', async () => {
    const created = await newProject(api, customerId);
    for (const field of ['status', 'contractValue', 'customerId']) {
      const reply = await api.patch(`/projects/${created.id}`, { [field]: 'x' }, { 'if-match': '*' });
      expect(reply.body).toMatchObject({ code: 'unknown_field', field });
    }
    expect((await api.patch(`/projects/${created.id}`, {}, { 'if-match': '*' })).body.code).toBe(
      'invalid_body',
    );
    expect((await api.patch(`/projects/${created.id}`, { name: '' }, { 'if-match': '*' })).body.code).toBe(
      'field_required',
    );
    expect((await api.patch('/projects/proj_missing', { name: 'x' }, { 'if-match': '*' })).status).toBe(404);
  });

  it('changes the vertical of an empty project, and refuses it once design or delivery content exists', async () => {
    const created = await newProject(api, customerId);
    const moved = await api.patch(`/projects/${created.id}`, { vertical: 'roofing' }, { 'if-match': '*' });
    expect(project(moved).vertical).toBe('roofing');
    await reportContent(platform, tenantId, created.id, { designs: 1 });
    const refused = await api.patch(`/projects/${created.id}`, { vertical: 'solar' }, { 'if-match': '*' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('conflict');
    expect(((await api.get(`/projects/${created.id}`)).body.project as Body).vertical).toBe('roofing');
    const rename = await api.patch(`/projects/${created.id}`, { name: 'Still fine' }, { 'if-match': '*' });
    expect(rename.status).toBe(200);
  });
});
