// Tasks, the day view, templates, geocoding and permit metadata through HTTP (endpoint rows 38,
// 39, 65, 66, 67, 74, 75, 76, and the tenant's planning settings).
import { beforeAll, describe, expect, it } from '@jest/globals';
import { systemContext } from '@fieldops/kit';
import { callUnary, connectClient } from '@fieldops/kit/grpc';
import { planning } from '@fieldops/proto';
import { type Body, type Client } from './support/harness.ts';
import { suiteTenant } from './support/suite-tenant.ts';
import { newCustomer, newProject } from './support/projects.ts';

let alice: Client;
let aliceId: string;
let bob: Client;

async function boundToken(name: string, email: string): Promise<{ api: Client; memberId: string }> {
  const created = await platform.admin.post(`/tenants/${tenantId}/members`, { name, email, role: 'Staff' });
  const memberId = (created.body.member as { id: string }).id;
  const token = await platform.token(tenantId, { role: 'Staff', memberId });
  return { api: token.api, memberId };
}

/** What capture (issue 5) reports about a site's preparation, through the real RPC. */
async function reportPreparation(projectId: string, fields: Partial<planning.ReportSitePreparationRequest>) {
  const client = connectClient(planning.PlanningServiceClient, platform.serviceAddress('projects'));
  try {
    await callUnary(
      client,
      'reportSitePreparation',
      { projectId, roofMarked: false, ...fields },
      systemContext({ id: tenantId, currency: 'USD', defaultVertical: 'survey' }, 'reportSitePreparation'),
    );
  } finally {
    client.close();
  }
}

const { platform, api, tenantId } = await suiteTenant('Planning Co');
const customerId = await newCustomer(api, 'Planning Customer');
beforeAll(async () => {
  ({ api: alice, memberId: aliceId } = await boundToken('Alice Pilot', 'alice@planning.test'));
  ({ api: bob } = await boundToken('Bob Pilot', 'bob@planning.test'));
});

const task = (reply: { body: Body }) => reply.body.task as Body & { id: string; networkId?: string };
const items = (reply: { body: Body }) => reply.body.items as (Body & { id: string })[];

describe('GET and POST /tasks (member-bound tokens only)', () => {
  it('refuses a token bound to no member with 409 principal_unbound, and files nothing', async () => {
    const filed = await api.post('/tasks', { title: 'Call the client' });
    expect([filed.status, filed.body.code]).toEqual([409, 'principal_unbound']);
    const listed = await api.get('/tasks');
    expect([listed.status, listed.body.code]).toEqual([409, 'principal_unbound']);
    expect(items(await alice.get('/tasks?kind=todo')).map((t) => t.title)).not.toContain('Call the client');
  });

  it('says so in /capabilities: refused for an unbound token, allowed for a bound one', async () => {
    const capability = async (client: Client) =>
      ((await client.get('/capabilities')).body.endpoints as Body[]).find(
        (e) => e.operationId === 'createTask',
      );
    expect(await capability(api)).toMatchObject({ allowed: false, refusal: { code: 'principal_unbound' } });
    expect(await capability(alice)).toMatchObject({ allowed: true });
  });

  it("files a task for the token's member and lists only that member's tasks", async () => {
    const filed = await alice.post('/tasks', { title: 'Charge the batteries', notes: 'All six' });
    expect(filed.status).toBe(201);
    expect(task(filed)).toMatchObject({
      kind: 'todo',
      title: 'Charge the batteries',
      memberId: aliceId,
      status: 'open',
    });
    expect(task(filed).id).toMatch(/^task_/);
    await bob.post('/tasks', { title: "Bob's own task" });
    const mine = items(await alice.get('/tasks')).map((t) => t.title);
    expect(mine).toContain('Charge the batteries');
    expect(mine).not.toContain("Bob's own task");
  });

  it('replays a keyed filing: same task, 200, replayed true', async () => {
    const first = await alice.post('/tasks', { title: 'Keyed', opId: 'task-op-1' });
    const again = await alice.post('/tasks', { title: 'Keyed', opId: 'task-op-1' });
    expect([first.status, again.status, again.body.replayed]).toEqual([201, 200, true]);
    expect(task(again).id).toBe(task(first).id);
  });

  it('needs projectId and dueDate for a visit, and a project that exists', async () => {
    const noProject = await alice.post('/tasks', { kind: 'visit', title: 'Visit', dueDate: '2025-05-06' });
    expect([noProject.status, noProject.body.code, noProject.body.field]).toEqual([
      400,
      'field_required',
      'projectId',
    ]);
    const project = await newProject(api, customerId);
    const noDate = await alice.post('/tasks', { kind: 'visit', title: 'Visit', projectId: project.id });
    expect([noDate.status, noDate.body.code, noDate.body.field]).toEqual([400, 'field_required', 'dueDate']);
    const missing = await alice.post('/tasks', {
      kind: 'visit',
      title: 'Visit',
      projectId: 'prj_missing',
      dueDate: '2025-05-06',
    });
    expect([missing.status, missing.body.code]).toEqual([404, 'not_found']);
    const badKind = await alice.post('/tasks', { kind: 'errand', title: 'X' });
    expect([badKind.status, badKind.body.code]).toEqual([400, 'field_invalid_enum']);
    const dateTime = await alice.post('/tasks', { title: 'X', dueDate: '2025-05-06T10:00:00Z' });
    expect([dateTime.status, dateTime.body.code]).toEqual([400, 'field_invalid']);
  });

  it('refuses work that would close a dependency cycle with 409 naming it, and unknown predecessors', async () => {
    const project = await newProject(api, customerId, { vertical: 'survey' });
    const unknown = await alice.post('/tasks', {
      kind: 'work',
      title: 'Extra',
      projectId: project.id,
      durationDays: 1,
      predecessors: [{ taskId: 'no-such-task' }],
    });
    expect([unknown.status, unknown.body.code]).toEqual([400, 'field_invalid']);
    // scope comes first in the template; making it wait on capture closes a circle.
    const cycle = await alice.post('/tasks', {
      kind: 'work',
      title: 'Scope after the flight',
      projectId: project.id,
      durationDays: 1,
      replacesTemplateTask: 'scope',
      predecessors: [{ taskId: 'capture' }],
    });
    expect([cycle.status, cycle.body.code]).toEqual([409, 'conflict']);
    expect(cycle.body.details).toMatchObject({ reason: 'dependency_cycle' });
    expect((cycle.body.details as { cycle: string[] }).cycle).toEqual(
      expect.arrayContaining(['scope', 'capture']),
    );
    expect(items(await alice.get(`/tasks?projectId=${project.id}`))).toEqual([]);
  });
});

describe('GET /day', () => {
  it('lists each visit of the date with its site and preparation; readiness never authorizes a flight', async () => {
    const project = await newProject(api, customerId, {
      vertical: 'roofing',
      siteAddress: '12 Slate Row, Leeds',
      geo: { lat: 53.8, lng: -1.55 },
    });
    await alice.post('/tasks', {
      kind: 'visit',
      title: 'Roof survey',
      projectId: project.id,
      dueDate: '2025-05-06',
    });
    await alice.post('/tasks', {
      kind: 'visit',
      title: 'Another day',
      projectId: project.id,
      dueDate: '2025-05-07',
    });

    const before = await api.get('/day?date=2025-05-06');
    expect(before.status).toBe(200);
    const visits = before.body.visits as Body[];
    expect(visits).toHaveLength(1);
    expect(visits[0]).toMatchObject({
      title: 'Roof survey',
      projectId: project.id,
      memberId: aliceId,
      site: { address: '12 Slate Row, Leeds' },
      roofMarked: false,
      humanReviewed: false,
      readiness: {
        state: 'needs_preparation',
        missing: ['imagery', 'roof_marked', 'draft_flight_plan', 'human_review'],
      },
    });
    expect(visits[0]?.imagery).toBeUndefined();
    expect(String(before.body.note)).toMatch(/never authorizes a flight/);

    await reportPreparation(project.id, {
      imageryCapturedAt: '2025-04-06T10:00:00Z',
      roofMarked: true,
      draftFlightPlanId: 'fp_1',
      flightPlanReviewedBy: 'mem_reviewer',
      flightPlanReviewedAt: '2025-05-05T09:00:00Z',
    });
    const after = (await api.get('/day?date=2025-05-06')).body.visits as Body[];
    expect(after[0]).toMatchObject({
      imagery: { capturedAt: '2025-04-06T10:00:00Z', ageDays: 29 },
      roofMarked: true,
      draftFlightPlan: { id: 'fp_1', humanReviewed: true, reviewedBy: 'mem_reviewer' },
      humanReviewed: true,
      readiness: { state: 'prepared', missing: [] },
    });
    expect(String((after[0]?.readiness as Body).note)).toMatch(/never authorizes a flight/);
  });

  it('filters by member and refuses a date-time', async () => {
    const other = (await api.get(`/day?date=2025-05-06&memberId=mem_nobody`)).body.visits as Body[];
    expect(other).toEqual([]);
    const bad = await api.get('/day?date=2025-05-06T00:00:00Z');
    expect([bad.status, bad.body.code]).toEqual([400, 'field_invalid']);
  });
});

describe('GET /templates and /templates/:id', () => {
  it('lists a template per vertical and filters by vertical', async () => {
    const all = items(await api.get('/templates'));
    expect(all.map((t) => t.vertical)).toEqual(
      expect.arrayContaining(['survey', 'roofing', 'solar', 'construction', 'inspection', 'general']),
    );
    const solar = items(await api.get('/templates?vertical=solar'));
    expect(solar.map((t) => t.id)).toEqual(['tpl_solar']);
  });

  it('reads one template with durations and dependencies, 404 for an unknown id', async () => {
    const reply = await api.get('/templates/tpl_roofing');
    const template = reply.body.template as {
      tasks: { id: string; durationDays: number; predecessors: { taskId: string }[] }[];
    };
    expect(reply.status).toBe(200);
    const capture = template.tasks.find((t) => t.id === 'capture');
    expect(capture).toMatchObject({
      durationDays: 1,
      predecessors: [{ taskId: 'plan-review', type: 'FS', lagDays: 0 }],
    });
    const missing = await api.get('/templates/tpl_nope');
    expect([missing.status, missing.body.code]).toEqual([404, 'not_found']);
  });
});

describe('GET /geocode', () => {
  it('finds a town by name, narrowed by state or country, largest first', async () => {
    const found = await api.get('/geocode?q=Denver%2C%20CO');
    expect(found.body.attribution).toMatch(/GeoNames.*CC BY 4\.0/);
    const denver = items(found);
    expect(denver[0]).toMatchObject({
      name: 'Denver',
      region: 'Colorado',
      countryCode: 'US',
      source: 'gazetteer',
    });
    const paris = items(await api.get(`/geocode?q=${encodeURIComponent('Paris, France')}`));
    expect(paris[0]).toMatchObject({ name: 'Paris', countryCode: 'FR' });
    const texas = items(await api.get('/geocode?q=Paris&country=US&limit=3'));
    expect(texas.every((place) => place.countryCode === 'US')).toBe(true);
  });

  it('reverse-geocodes a point to its country and nearest place', async () => {
    const reply = await api.get('/geocode?lat=53.8&lng=-1.55');
    expect(reply.body.countryCode).toBe('GB');
    expect(items(reply)[0]).toMatchObject({ name: 'Leeds', countryCode: 'GB' });
    const sea = await api.get('/geocode?lat=30&lng=-40');
    expect([sea.body.countryCode, items(sea)]).toEqual([null, []]);
  });

  it('answers an empty list for an unknown place, and 400 without q or a whole point', async () => {
    expect(items(await api.get('/geocode?q=Qwxyzzy'))).toEqual([]);
    const none = await api.get('/geocode');
    expect([none.status, none.body.code]).toEqual([400, 'field_required']);
    const half = await api.get('/geocode?lat=10');
    expect([half.status, half.body.code, half.body.field]).toEqual([400, 'field_required', 'lng']);
    const bad = await api.get('/geocode?lat=95&lng=0');
    expect([bad.status, bad.body.code]).toEqual([400, 'field_invalid']);
  });
});

describe('GET and POST /projects/:id/permit', () => {
  it('merges the project override over the tenant defaults, drops unknown keys, leaves the defaults alone', async () => {
    const set = await api.post('/settings/planning', {
      permitDefaults: { operatorId: 'GBR-OP-123', insurer: 'Sky Mutual', favouriteColour: 'blue' },
    });
    expect(set.status).toBe(200);
    expect(set.body.droppedKeys).toEqual(['favouriteColour']);

    const project = await newProject(api, customerId);
    const other = await newProject(api, customerId);
    const initial = await api.get(`/projects/${project.id}/permit`);
    expect((initial.body.permit as Body).metadata).toEqual({
      operatorId: 'GBR-OP-123',
      insurer: 'Sky Mutual',
    });

    const override = await api.post(`/projects/${project.id}/permit`, {
      insurer: 'Drone Cover Ltd',
      ahj: 'Leeds City Council',
      shoeSize: 44,
    });
    expect(override.status).toBe(200);
    expect(override.body.droppedKeys).toEqual(['shoeSize']);
    const permit = (await api.get(`/projects/${project.id}/permit`)).body.permit as Body;
    expect(permit.metadata).toEqual({
      operatorId: 'GBR-OP-123',
      insurer: 'Drone Cover Ltd',
      ahj: 'Leeds City Council',
    });
    expect(permit.values).toEqual(
      expect.arrayContaining([
        { key: 'insurer', value: 'Drone Cover Ltd', source: 'project' },
        { key: 'operatorId', value: 'GBR-OP-123', source: 'tenant' },
      ]),
    );
    expect(permit.tenantDefaults).toEqual({ operatorId: 'GBR-OP-123', insurer: 'Sky Mutual' });
    const settings = (await api.get('/settings/planning')).body.settings as Body;
    expect(settings.permitDefaults).toEqual({ operatorId: 'GBR-OP-123', insurer: 'Sky Mutual' });
    expect(((await api.get(`/projects/${other.id}/permit`)).body.permit as Body).metadata).toEqual({
      operatorId: 'GBR-OP-123',
      insurer: 'Sky Mutual',
    });

    // null clears the override's key: the default shows through again.
    await api.post(`/projects/${project.id}/permit`, { insurer: null });
    expect(((await api.get(`/projects/${project.id}/permit`)).body.permit as Body).metadata).toMatchObject({
      insurer: 'Sky Mutual',
      ahj: 'Leeds City Council',
    });
  });

  it('refuses a known key with a value that is not text, bad JSON and unknown projects; changes nothing', async () => {
    const project = await newProject(api, customerId);
    const bad = await api.post(`/projects/${project.id}/permit`, { ahj: 42 });
    expect([bad.status, bad.body.code]).toEqual([400, 'invalid_body']);
    const json = await api.request('POST', `/projects/${project.id}/permit`, { body: '{"ahj":' });
    expect([json.status, json.body.code]).toEqual([400, 'invalid_json']);
    const missing = await api.get('/projects/prj_missing/permit');
    expect([missing.status, missing.body.code]).toEqual([404, 'not_found']);
    const missingPost = await api.post('/projects/prj_missing/permit', { ahj: 'X' });
    expect([missingPost.status, missingPost.body.code]).toEqual([404, 'not_found']);
    expect(((await api.get(`/projects/${project.id}/permit`)).body.permit as Body).projectOverride).toEqual(
      {},
    );
  });

  it('rehearses an override with x-service-dry-run and stores nothing', async () => {
    const project = await newProject(api, customerId);
    const dry = await api.post(
      `/projects/${project.id}/permit`,
      { utility: 'Northern Power' },
      { 'x-service-dry-run': '1' },
    );
    expect(dry.body).toMatchObject({ dryRun: true, applied: false });
    expect(((await api.get(`/projects/${project.id}/permit`)).body.permit as Body).projectOverride).toEqual(
      {},
    );
  });
});

describe('project-restricted tokens', () => {
  it('see only their projects in the day view and tasks, and get 404 for the others', async () => {
    const mine = await newProject(api, customerId, { siteAddress: 'Mine Lane' });
    const theirs = await newProject(api, customerId, { siteAddress: 'Their Lane' });
    await alice.post('/tasks', { kind: 'visit', title: 'Mine', projectId: mine.id, dueDate: '2025-07-01' });
    await alice.post('/tasks', {
      kind: 'visit',
      title: 'Theirs',
      projectId: theirs.id,
      dueDate: '2025-07-01',
    });
    const restricted = (
      await platform.token(tenantId, { role: 'Staff', memberId: aliceId, projectIds: [mine.id] })
    ).api;

    const day = (await restricted.get('/day?date=2025-07-01')).body.visits as Body[];
    expect(day.map((visit) => visit.title)).toEqual(['Mine']);
    const tasks = items(await restricted.get('/tasks?kind=visit')).map((t) => t.title);
    expect(tasks).toContain('Mine');
    expect(tasks).not.toContain('Theirs');

    const filed = await restricted.post('/tasks', {
      kind: 'visit',
      title: 'X',
      projectId: theirs.id,
      dueDate: '2025-07-02',
    });
    expect([filed.status, filed.body.code]).toEqual([404, 'not_found']);
    for (const path of ['schedule', 'compliance', 'permit']) {
      const reply = await restricted.get(`/projects/${theirs.id}/${path}`);
      expect([path, reply.status]).toEqual([path, 404]);
    }
    expect((await restricted.get(`/projects/${mine.id}/permit`)).status).toBe(200);
  });
});
