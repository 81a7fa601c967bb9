// Project records through HTTP: endpoint rows 1–6 and the spec's Project record and Project
// records tables (kinds, required fields per kind, read-only status, void/unvoid).
import { RECORD_STATUS_MACHINES } from '@fieldops/contracts';
import { systemContext } from '@fieldops/kit';
import { callUnary, connectClient } from '@fieldops/kit/grpc';
import { projects } from '@fieldops/proto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { newMember, type Body } from './support/harness.ts';
import { suiteTenant } from './support/suite-tenant.ts';
import { newCustomer, newProject } from './support/projects.ts';

let projectId: string;
let base: `/projects/${string}/records`;
/** A member of the tenant to assign (assignees are checked to exist). */
let member: string;

type RecordBody = Body & { id: string; etag: string; kind: string; status: string; voidedAt?: string };

const { platform, api, tenantId } = await suiteTenant('Records Co');
beforeAll(async () => {
  projectId = (await newProject(api, await newCustomer(api, 'Records Customer'))).id;
  base = `/projects/${projectId}/records`;
  member = await newMember(platform, tenantId, 'crew@records.test');
});

const record = (reply: { body: Body }) => reply.body.record as RecordBody;
const items = (reply: { body: Body }) => reply.body.items as RecordBody[];
const create = async (body: Body) => {
  const reply = await api.post(base, body);
  if (reply.status !== 201) throw new Error(JSON.stringify(reply.body));
  return record(reply);
};

/** A record that only arrives from the portal or a sync (submittal, drawing, minutes), over gRPC. */
async function imported(kind: string, title: string): Promise<RecordBody> {
  const client = connectClient(projects.ProjectRecordServiceClient, platform.serviceAddress('projects'));
  try {
    const write = await callUnary(
      client,
      'importRecord',
      { projectId, kind, title, assignees: [] },
      systemContext({ id: tenantId, currency: 'USD', defaultVertical: 'survey' }, 'importRecord'),
    );
    return write.record as unknown as RecordBody;
  } finally {
    client.close();
  }
}

describe('POST /projects/:id/records', () => {
  it('creates each listable kind at its machine’s first status', async () => {
    const punch = await create({
      kind: 'punch',
      title: 'Loose flashing',
      priority: 'high',
      assignees: [member],
    });
    expect(punch).toMatchObject({ kind: 'punch', status: 'open', title: 'Loose flashing', priority: 'high' });
    expect(punch.assignees).toEqual([member]);
    const rfi = await create({ kind: 'rfi', subject: 'Datum', question: 'Which vertical datum?' });
    expect(rfi.status).toBe(RECORD_STATUS_MACHINES.rfi.initial);
    expect((await create({ kind: 'incident', title: 'Drone hard landing' })).status).toBe('reported');
    expect((await create({ kind: 'daily-log', description: 'Flew 3 batteries' })).status).toBe('draft');
  });

  it('requires the fields of each kind', async () => {
    const cases: [Body, string][] = [
      [{ kind: 'punch' }, 'title'],
      [{ kind: 'incident', description: 'x' }, 'title'],
      [{ kind: 'rfi', subject: 'only a subject' }, 'question'],
      [{ kind: 'rfi', question: 'only a question' }, 'subject'],
    ];
    for (const [body, field] of cases) {
      const reply = await api.post(base, body);
      expect([reply.status, reply.body.code, reply.body.field]).toEqual([400, 'field_required', field]);
    }
    expect((await api.post(base, { title: 'no kind' })).body).toMatchObject({
      code: 'field_required',
      field: 'kind',
    });
  });

  it('refuses kinds that are read-only, fields of another kind, status and bad values', async () => {
    expect((await api.post(base, { kind: 'submittal', title: 'x' })).body.code).toBe('field_invalid_enum');
    const foreign = await api.post(base, { kind: 'punch', title: 'x', subject: 'rfi field' });
    expect(foreign.body).toMatchObject({ code: 'unknown_field', field: 'subject' });
    expect((await api.post(base, { kind: 'punch', title: 'x', status: 'closed' })).body.code).toBe(
      'unknown_field',
    );
    expect((await api.post(base, { kind: 'punch', title: 'x', priority: 'asap' })).body.code).toBe(
      'field_invalid_enum',
    );
    expect((await api.post(base, { kind: 'punch', title: 'x', dueDate: '2026-02-30' })).body.code).toBe(
      'field_invalid',
    );
    expect((await api.post(base, { kind: 'punch', title: 'x', dueDate: 'tomorrow' })).body.code).toBe(
      'field_invalid',
    );
    expect((await api.request('POST', base, { body: '{"kind":' })).body.code).toBe('invalid_json');
    expect((await api.post(base, ['punch'])).body.code).toBe('invalid_body');
    expect((await api.post('/projects/proj_missing/records', { kind: 'punch', title: 'x' })).status).toBe(
      404,
    );
  });

  it('rehearses a create and a void with the dry-run header, storing nothing', async () => {
    const dry = await api.post(base, { kind: 'punch', title: 'Dry punch' }, { 'x-service-dry-run': '1' });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ dryRun: true, applied: false });
    const listed = items(await api.get(`${base}?kind=punch&limit=100`)).map((r) => r.title);
    expect(listed).not.toContain('Dry punch');
    const punch = await create({ kind: 'punch', title: 'Kept punch' });
    const dryVoid = await api.post(
      `${base}/${punch.id}/void`,
      { kind: 'punch' },
      { 'x-service-dry-run': '1' },
    );
    expect(dryVoid.body).toMatchObject({ dryRun: true, applied: false });
    expect(record(await api.get(`${base}/${punch.id}?kind=punch`)).voidedAt).toBeUndefined();
  });

  it('replays a keyed create with 200 and replayed: true', async () => {
    const body = { kind: 'punch', title: 'Keyed punch', opId: 'op-rec-1' };
    const first = await api.post(base, body);
    const again = await api.post(base, body);
    expect([first.status, again.status, again.body.replayed]).toEqual([201, 200, true]);
    expect(record(again).id).toBe(record(first).id);
  });
});

describe('GET /projects/:id/records and /records/:recordId', () => {
  it('lists one kind, newest first, and needs kind', async () => {
    const listProject = (await newProject(api, await newCustomer(api, 'List Customer'))).id;
    const path = `/projects/${listProject}/records` as const;
    const a = record(await api.post(path, { kind: 'incident', title: 'First' }));
    const b = record(await api.post(path, { kind: 'incident', title: 'Second' }));
    await api.post(path, { kind: 'punch', title: 'Not an incident' });
    expect(items(await api.get(`${path}?kind=incident`)).map((r) => r.id)).toEqual([b.id, a.id]);
    const page = await api.get(`${path}?kind=incident&limit=1`);
    expect(items(page).map((r) => r.id)).toEqual([b.id]);
    const next = await api.get(`${path}?kind=incident&limit=1&cursor=${String(page.body.nextCursor)}`);
    expect(items(next).map((r) => r.id)).toEqual([a.id]);
    expect((await api.get(path)).body).toMatchObject({ code: 'field_required', field: 'kind' });
    expect((await api.get(`${path}?kind=submittal`)).body.code).toBe('field_invalid_enum');
    expect((await api.get(`${path}?kind=punch&includeVoided=yes`)).body.code).toBe('field_invalid');
    expect((await api.get('/projects/proj_missing/records?kind=punch')).status).toBe(404);
  });

  it('reads one record of any kind by id, with its etag; the wrong kind is not found', async () => {
    const punch = await create({ kind: 'punch', title: 'Read me' });
    const reply = await api.get(`${base}/${punch.id}?kind=punch`);
    expect(reply.status).toBe(200);
    expect(record(reply)).toMatchObject({
      id: punch.id,
      title: 'Read me',
      nextStatuses: ['in_progress', 'closed'],
    });
    expect(reply.headers.get('etag')).toBe(`"${punch.etag}"`);
    expect((await api.get(`${base}/${punch.id}?kind=rfi`)).status).toBe(404);
    expect((await api.get(`${base}/${punch.id}`)).body).toMatchObject({
      code: 'field_required',
      field: 'kind',
    });
    for (const kind of ['submittal', 'drawing', 'minutes']) {
      const other = await imported(kind, `A ${kind}`);
      const read = await api.get(`${base}/${other.id}?kind=${kind}`);
      expect(record(read)).toMatchObject({
        kind,
        title: `A ${kind}`,
        status: RECORD_STATUS_MACHINES[kind as 'drawing'].initial,
      });
    }
  });
});

describe('PATCH /projects/:id/records/:recordId', () => {
  it('amends descriptive fields with If-Match; an empty value clears an optional one', async () => {
    const punch = await create({
      kind: 'punch',
      title: 'Gutter',
      description: 'left side',
      assignees: [member],
    });
    const reply = await api.patch(
      `${base}/${punch.id}`,
      { kind: 'punch', title: 'Gutter, east', description: '', assignees: [], ballInCourt: 'Roofer' },
      { 'if-match': punch.etag },
    );
    expect(reply.status).toBe(200);
    expect(record(reply)).toMatchObject({ title: 'Gutter, east', ballInCourt: 'Roofer', assignees: [] });
    expect(record(reply).description).toBeUndefined();
  });

  it('needs If-Match, refuses a stale one with the current record, and never patches status', async () => {
    const punch = await create({ kind: 'punch', title: 'Vent' });
    expect((await api.patch(`${base}/${punch.id}`, { kind: 'punch', title: 'x' })).status).toBe(428);
    await api.patch(`${base}/${punch.id}`, { kind: 'punch', title: 'Vent 2' }, { 'if-match': punch.etag });
    const stale = await api.patch(
      `${base}/${punch.id}`,
      { kind: 'punch', title: 'Vent 3' },
      { 'if-match': punch.etag },
    );
    expect(stale.status).toBe(409);
    expect((stale.body.current as Body).title).toBe('Vent 2');
    const status = await api.patch(
      `${base}/${punch.id}`,
      { kind: 'punch', status: 'closed' },
      { 'if-match': '*' },
    );
    expect(status.body).toMatchObject({ code: 'unknown_field', field: 'status' });
  });

  it('refuses a required field cleared, a field of another kind, too long a value and an empty body', async () => {
    const rfi = await create({ kind: 'rfi', subject: 'S', question: 'Q?' });
    const path = `${base}/${rfi.id}` as const;
    expect((await api.patch(path, { kind: 'rfi', question: '' }, { 'if-match': '*' })).body).toMatchObject({
      code: 'field_required',
      field: 'question',
    });
    expect((await api.patch(path, { kind: 'rfi', title: 'x' }, { 'if-match': '*' })).body.code).toBe(
      'unknown_field',
    );
    expect(
      (await api.patch(path, { kind: 'rfi', subject: 'x'.repeat(201) }, { 'if-match': '*' })).body.code,
    ).toBe('field_too_long');
    expect((await api.patch(path, { kind: 'rfi' }, { 'if-match': '*' })).body.code).toBe('invalid_body');
    expect((await api.patch(path, { kind: 'punch', title: 'x' }, { 'if-match': '*' })).status).toBe(404);
    expect((await api.patch(path, { kind: 'memo', title: 'x' }, { 'if-match': '*' })).body.code).toBe(
      'field_invalid_enum',
    );
  });
});

describe('void and unvoid', () => {
  it('retracts, hides from lists unless includeVoided, keeps voidedAt on a repeat, and takes it back', async () => {
    const voidProject = (await newProject(api, await newCustomer(api, 'Void Customer'))).id;
    const path = `/projects/${voidProject}/records` as const;
    const punch = record(await api.post(path, { kind: 'punch', title: 'Wrong item' }));
    const voided = await api.post(`${path}/${punch.id}/void`, { kind: 'punch' });
    expect(voided.status).toBe(200);
    const voidedAt = record(voided).voidedAt;
    expect(voidedAt).toEqual(expect.any(String));
    expect(record(voided).status).toBe('open');

    expect(items(await api.get(`${path}?kind=punch`))).toEqual([]);
    const all = items(await api.get(`${path}?kind=punch&includeVoided=true`));
    expect(all.map((r) => [r.id, r.voidedAt])).toEqual([[punch.id, voidedAt]]);
    expect(record(await api.get(`${path}/${punch.id}?kind=punch`)).voidedAt).toBe(voidedAt);

    await new Promise((resolve) => setTimeout(resolve, 5));
    const again = await api.post(`${path}/${punch.id}/void`, { kind: 'punch' });
    expect([again.status, again.body.replayed, record(again).voidedAt]).toEqual([200, true, voidedAt]);

    const amend = await api.patch(`${path}/${punch.id}`, { kind: 'punch', title: 'x' }, { 'if-match': '*' });
    expect(amend.status).toBe(409);

    const back = await api.post(`${path}/${punch.id}/unvoid`, { kind: 'punch' });
    expect(back.status).toBe(200);
    expect(record(back).voidedAt).toBeUndefined();
    expect(items(await api.get(`${path}?kind=punch`)).map((r) => r.id)).toEqual([punch.id]);
    const unvoidAgain = await api.post(`${path}/${punch.id}/unvoid`, { kind: 'punch' });
    expect([unvoidAgain.status, unvoidAgain.body.replayed]).toEqual([200, true]);
  });

  it('needs the kind, refuses an unknown one and answers 404 for another kind or record', async () => {
    const punch = await create({ kind: 'punch', title: 'Kind check' });
    expect((await api.post(`${base}/${punch.id}/void`, { kind: 'memo' })).body.code).toBe(
      'field_invalid_enum',
    );
    expect((await api.post(`${base}/${punch.id}/void`, { kind: 'rfi' })).status).toBe(404);
    expect((await api.post(`${base}/rec_missing/void`, { kind: 'punch' })).status).toBe(404);
    expect((await api.request('POST', `${base}/${punch.id}/unvoid`, { body: '{' })).body.code).toBe(
      'invalid_json',
    );
    expect((await api.post(`${base}/${punch.id}/void`, {})).body.code).toBe('field_required');
  });
});
