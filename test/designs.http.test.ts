// Designs through HTTP (row 71, seal; create, list and read beyond the 88): a draft recorded on a
// project, sealed only through the two-phase confirmation (binding), recording who sealed it and
// the caller's X-Agent-Confirmed-By claim; a sealed design never changes and sealing it again is
// a replay.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { eventually, type Body } from './support/harness.ts';
import { suiteTenant } from './support/suite-tenant.ts';
import { captureProject } from './support/capture.ts';
import { newCustomer, newProject } from './support/projects.ts';

let projectId: string;

const { platform, api, tenantId } = await suiteTenant('Designs Co');
beforeAll(async () => {
  projectId = await captureProject(api, 'Roof Array');
});

type DesignBody = Body & { id: string; status: string; sealedAt: string; sealedByClaim: string };

const base = (): `/projects/${string}/designs` => `/projects/${projectId}/designs`;
const design = (reply: { body: Body }) => reply.body.design as DesignBody;

async function draft(body: Body = {}): Promise<DesignBody> {
  const reply = await api.post(base(), { name: 'South roof, 24 panels', kind: 'solar_layout', ...body });
  expect(reply.status).toBe(201);
  return design(reply);
}

/** The two-phase seal: the first call demands confirmation, the identical re-send performs it. */
async function seal(id: string, body: Body = {}, headers: Record<string, string> = {}) {
  const first = await api.post(`${base()}/${id}/seal`, body, headers);
  expect([first.status, first.body.code]).toEqual([409, 'confirmation_required']);
  const final = await api.post(`${base()}/${id}/seal`, body, {
    ...headers,
    [String(first.body.confirmHeader)]: String(first.body.confirmToken),
  });
  return { first, final };
}

describe('POST /projects/:id/designs, GET …/designs and …/designs/:designId', () => {
  it('records a draft design, lists it and reads it', async () => {
    const created = await draft({ notes: 'Setback 0.9 m from ridge.' });
    expect(created).toMatchObject({
      projectId,
      name: 'South roof, 24 panels',
      kind: 'solar_layout',
      status: 'draft',
      notes: 'Setback 0.9 m from ridge.',
      sealedAt: '',
    });
    expect(created.id).toMatch(/^dsn_/);
    const listed = (await api.get(base())).body.items as DesignBody[];
    expect(listed.map((item) => item.id)).toContain(created.id);
    expect(design(await api.get(`${base()}/${created.id}`))).toEqual(created);
  });

  it('creates exactly once by opId', async () => {
    const one = await api.post(base(), { name: 'Survey grid', kind: 'survey', opId: 'dsn-op-1' });
    const two = await api.post(base(), { name: 'Survey grid', kind: 'survey', opId: 'dsn-op-1' });
    expect([one.status, two.status, two.body.replayed]).toEqual([201, 200, true]);
    expect(design(two).id).toBe(design(one).id);
  });

  it('refuses bad input with the field named, and records nothing', async () => {
    const before = ((await api.get(base())).body.items as DesignBody[]).length;
    const noName = await api.post(base(), { kind: 'survey' });
    expect([noName.status, noName.body.code]).toEqual([400, 'field_required']);
    const badKind = await api.post(base(), { name: 'X', kind: 'blueprint' });
    expect([badKind.status, badKind.body.code]).toEqual([400, 'field_invalid_enum']);
    const unknown = await api.post(base(), { name: 'X', kind: 'survey', colour: 'red' });
    expect([unknown.status, unknown.body.code]).toEqual([400, 'unknown_field']);
    const longNotes = await api.post(base(), { name: 'X', kind: 'survey', notes: 'n'.repeat(4001) });
    expect([longNotes.status, longNotes.body.code]).toEqual([400, 'field_too_long']);
    expect(((await api.get(base())).body.items as DesignBody[]).length).toBe(before);
  });

  it('is 404 for an unknown project, design or scene, and for a design of another project', async () => {
    expect((await api.post('/projects/prj_missing/designs', { name: 'X', kind: 'survey' })).status).toBe(404);
    expect((await api.get('/projects/prj_missing/designs')).status).toBe(404);
    expect((await api.get(`${base()}/dsn_missing`)).status).toBe(404);
    const noScene = await api.post(base(), { name: 'X', kind: 'site_plan', sceneId: 'scn_missing' });
    expect([noScene.status, noScene.body.code]).toEqual([404, 'not_found']);
    const other = await captureProject(api, 'Other Roof');
    const created = await draft();
    expect((await api.get(`/projects/${other}/designs/${created.id}`)).status).toBe(404);
    expect((await api.post(`/projects/${other}/designs/${created.id}/seal`, {})).status).toBe(404);
  });
});

describe('POST /projects/:id/designs/:designId/seal (binding, through the confirmation flow)', () => {
  it('demands confirmation, then seals, recording who sealed it and the claim', async () => {
    const created = await draft();
    const claim = { 'x-agent-confirmed-by': 'R. Ortiz, PE' };
    const { first, final } = await seal(created.id, { note: 'Stamped for permit.' }, claim);
    expect(first.body.willDo).toMatchObject({ effect: 'binding' });
    expect(String((first.body.willDo as Body).summary)).toMatch(new RegExp(`^Seal solar_layout design`));
    expect(final.status).toBe(200);
    expect(design(final)).toMatchObject({
      status: 'sealed',
      sealedByClaim: 'R. Ortiz, PE',
      sealNote: 'Stamped for permit.',
    });
    expect(design(final).sealedByPrincipal).toMatch(/^tok_/);
    expect(Date.parse(design(final).sealedAt)).not.toBeNaN();
    expect(design(await api.get(`${base()}/${created.id}`))).toEqual(design(final));
    const entry = await eventually(async () => {
      const items = (await api.get(`/audit?limit=100&resourceId=${created.id}`)).body.items as
        Body[] | undefined;
      return items?.find((item) => item.action === 'design.sealed');
    });
    expect(entry).toMatchObject({ operation: 'sealDesign', agent: { confirmedBy: 'R. Ortiz, PE' } });
  });

  it('seals nothing before the confirmed re-send, on a changed body or on a dry run', async () => {
    const created = await draft();
    const first = await api.post(`${base()}/${created.id}/seal`, { note: 'A' });
    const changed = await api.post(
      `${base()}/${created.id}/seal`,
      { note: 'B' },
      { 'x-service-confirm': String(first.body.confirmToken) },
    );
    expect([changed.status, changed.body.code]).toEqual([409, 'confirmation_required']);
    expect(changed.body.confirmToken).not.toBe(first.body.confirmToken);
    const dry = await api.post(`${base()}/${created.id}/seal`, {}, { 'x-service-dry-run': '1' });
    expect(dry.body).toMatchObject({ dryRun: true, applied: false, design: { status: 'sealed' } });
    expect(design(await api.get(`${base()}/${created.id}`)).status).toBe('draft');
  });

  it('answers a sealed design unchanged when sealed again (replayed), keeping the first seal', async () => {
    const created = await draft();
    const sealed = design((await seal(created.id, { note: 'first' })).final);
    const again = (await seal(created.id, { note: 'second' })).final;
    expect([again.status, again.body.replayed]).toEqual([200, true]);
    expect(design(again)).toEqual(sealed);
    expect(design(again).sealNote).toBe('first');
  });

  it('is 404 for an unknown design, and refused to a Viewer and to a token of other projects', async () => {
    expect((await api.post(`${base()}/dsn_missing/seal`, {})).status).toBe(404);
    const created = await draft();
    const viewer = await platform.token(tenantId, { role: 'Viewer' });
    const denied = await viewer.api.post(`${base()}/${created.id}/seal`, {});
    expect([denied.status, denied.body.code]).toEqual([403, 'read_only']);
    expect((await viewer.api.get(`${base()}/${created.id}`)).status).toBe(200);
    const other = await captureProject(api, 'Elsewhere');
    const restricted = await platform.token(tenantId, { role: 'Manager', projectIds: [other] });
    expect((await restricted.api.get(`${base()}/${created.id}`)).status).toBe(404);
    expect((await restricted.api.post(`${base()}/${created.id}/seal`, {})).status).toBe(404);
    expect(design(await api.get(`${base()}/${created.id}`)).status).toBe('draft');
  });
});

describe('what projects learns of designs', () => {
  it('locks the vertical of a project once it holds a design', async () => {
    const roof = await captureProject(api, 'Locking Roof');
    const moved = await api.patch(`/projects/${roof}`, { vertical: 'solar' }, { 'if-match': '*' });
    expect(moved.status).toBe(200);
    await api.post(`/projects/${roof}/designs`, { name: 'Array', kind: 'solar_layout' });
    const refused = await api.patch(`/projects/${roof}`, { vertical: 'roofing' }, { 'if-match': '*' });
    expect([refused.status, refused.body.code]).toEqual([409, 'conflict']);
    expect(((await api.get(`/projects/${roof}`)).body.project as Body).vertical).toBe('solar');
  });

  it("gives a solar project's compliance a plan set whose design item is met", async () => {
    const customer = await newCustomer(api, 'Sunny Homes');
    const site = { vertical: 'solar', name: 'Sunny Roof', geo: { lat: 39.74, lng: -104.99 } };
    const roof = (await newProject(api, customer, site)).id;
    const compliance = async () =>
      (await api.get(`/projects/${roof}/compliance`)).body.compliance as Body & {
        planSet?: { items: { id: string; met: boolean }[] };
      };
    expect((await compliance()).planSet).toBeUndefined();
    await api.post(`/projects/${roof}/designs`, { name: 'Array', kind: 'solar_layout' });
    expect((await compliance()).planSet?.items).toContainEqual(
      expect.objectContaining({ id: 'design', met: true }),
    );
  });

  it('does not lock it on a dry-run design', async () => {
    const roof = await captureProject(api, 'Dry Roof');
    const dry = await api.post(
      `/projects/${roof}/designs`,
      { name: 'Array', kind: 'solar_layout' },
      { 'x-service-dry-run': '1' },
    );
    expect(dry.body).toMatchObject({ dryRun: true, applied: false });
    const moved = await api.patch(`/projects/${roof}`, { vertical: 'roofing' }, { 'if-match': '*' });
    expect(moved.status).toBe(200);
  });
});
