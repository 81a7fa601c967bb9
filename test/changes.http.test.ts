// GET /changes through HTTP (ENDPOINTS row 77): the tenant's changes since a cursor, oldest first,
// filtered to the kinds the token can read and, for a project-restricted token, to its projects.
// The feed is eventually consistent, so each write is waited for before the next one is made.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  eventually,
  startTestPlatform,
  type Body,
  type Client,
  type TestPlatform,
} from './support/harness.ts';
import { newCustomer, newProject } from './support/projects.ts';

let platform: TestPlatform;
let api: Client;
let tenantId: string;

interface Change {
  seq: number;
  kind: string;
  id: string;
  action: string;
  type: string;
  etag: string | null;
  projectId: string | null;
  at: string;
}
type FeedPage = { items: Change[]; nextCursor: string; hasMore: boolean; limit: number };

const page = async (client: Client, query = ''): Promise<FeedPage> => {
  const reply = await client.get(`/changes${query}`);
  if (reply.status !== 200) throw new Error(JSON.stringify(reply.body));
  return reply.body as unknown as FeedPage;
};

/** Every change the client can see, following nextCursor from `cursor` (the start by default). */
async function everything(
  client: Client,
  extra = '',
  from = '',
): Promise<{ changes: Change[]; cursor: string }> {
  const changes: Change[] = [];
  let cursor = from;
  for (;;) {
    const next = await page(client, `?limit=100${extra}${cursor ? `&cursor=${cursor}` : ''}`);
    changes.push(...next.items);
    cursor = next.nextCursor;
    if (!next.hasMore) return { changes, cursor };
  }
}

/** Waits until the tenant's feed shows this change of this resource (the feed trails the write). */
const settled = (id: string, action = 'created') =>
  eventually(async () => {
    const { changes } = await everything(api);
    return changes.some((c) => c.id === id && c.action === action) ? changes : undefined;
  }, 10_000);

const brief = (c: Change) => `${c.kind} ${c.id} ${c.action}`;
const created = (reply: { status: number; body: Body }, member: string) => {
  if (reply.status !== 201) throw new Error(JSON.stringify(reply.body));
  return reply.body[member] as Body & { id: string; etag: string };
};

// The story every test reads: crm and projects writes, each waited for in turn.
let customerId: string;
let leadId: string;
let projectId: string;
let dealId: string;
let recordId: string;
let otherProjectId: string;
let otherRecordId: string;
/** What the story wrote, step by step; the changes of one step may land in either order. */
const steps: string[][] = [];

beforeAll(async () => {
  platform = await startTestPlatform();
  ({ api, tenantId } = await platform.tenant('Changes Co'));
  // Whatever the tenant's creation itself recorded comes before the story.
  const before = (await everything(api)).changes.map(brief);
  if (before.length) steps.push(before);

  customerId = await newCustomer(api, 'Feed Customer');
  await settled(customerId);
  steps.push([`customer ${customerId} created`]);

  leadId = created(await api.post('/leads', { name: 'Feed Lead', email: 'feed@example.com' }), 'lead').id;
  await settled(leadId);
  steps.push([`lead ${leadId} created`]);

  const patched = await api.patch(`/leads/${leadId}`, { phone: '+1 555 0101' }, { 'if-match': '*' });
  expect(patched.status).toBe(200);
  await settled(leadId, 'updated');
  steps.push([`lead ${leadId} updated`]);

  const project = await newProject(api, customerId, { name: 'Feed Project' });
  ({ id: projectId, dealId } = project);
  await settled(projectId);
  await settled(dealId);
  steps.push([`project ${projectId} created`, `deal ${dealId} created`]);

  const records = `/projects/${projectId}/records` as const;
  recordId = created(await api.post(records, { kind: 'punch', title: 'Loose flashing' }), 'record').id;
  await settled(recordId);
  steps.push([`record ${recordId} created`]);

  const amended = await api.patch(
    `${records}/${recordId}`,
    { kind: 'punch', title: 'Loose flashing, east' },
    { 'if-match': '*' },
  );
  expect(amended.status).toBe(200);
  await settled(recordId, 'updated');
  steps.push([`record ${recordId} updated`]);

  const voided = await api.post(`${records}/${recordId}/void`, { kind: 'punch' }, { 'if-match': '*' });
  expect(voided.status).toBe(200);
  await settled(recordId, 'voided');
  steps.push([`record ${recordId} voided`]);

  const other = await newProject(api, customerId, { name: 'Other Project' });
  otherProjectId = other.id;
  await settled(otherProjectId);
  await settled(other.dealId);
  steps.push([`project ${otherProjectId} created`, `deal ${other.dealId} created`]);
  otherRecordId = created(
    await api.post(`/projects/${otherProjectId}/records`, {
      kind: 'punch',
      title: 'Gate sticks',
    }),
    'record',
  ).id;
  await settled(otherRecordId);
  steps.push([`record ${otherRecordId} created`]);
}, 120_000);
afterAll(() => platform.stop());

/** The feed, cut into the story's steps, each step's changes sorted (order within a step is free). */
function asSteps(changes: Change[]): string[][] {
  let at = 0;
  return steps.map((step) => {
    const slice = changes.slice(at, at + step.length).map(brief);
    at += step.length;
    return slice.sort();
  });
}

describe('GET /changes: the feed', () => {
  it('shows exactly the changes made, in order, read from the start in pages of two', async () => {
    const seen: Change[] = [];
    let cursor = '';
    let pages = 0;
    for (;;) {
      const next = await page(api, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(next.items.length).toBeLessThanOrEqual(2);
      expect(next.limit).toBe(2);
      seen.push(...next.items);
      cursor = next.nextCursor;
      pages += 1;
      if (!next.hasMore) break;
    }
    const total = steps.flat().length;
    expect(seen).toHaveLength(total);
    expect(pages).toBeGreaterThanOrEqual(Math.ceil(total / 2));
    expect(asSteps(seen)).toEqual(steps.map((step) => [...step].sort()));
    // Sequence numbers only grow: a client applies changes in this order.
    expect(seen.map((c) => c.seq)).toEqual([...seen.map((c) => c.seq)].sort((a, b) => a - b));
  });

  it('describes each change: the event behind it, the etag after it, the project and the time', async () => {
    const { changes } = await everything(api);
    const leadUpdate = changes.find((c) => c.id === leadId && c.action === 'updated');
    const lead = await api.get(`/leads/${leadId}`);
    expect(leadUpdate).toMatchObject({
      kind: 'lead',
      type: 'lead.updated',
      etag: (lead.body.lead as Body).etag,
      projectId: null,
    });
    const voided = changes.find((c) => c.id === recordId && c.action === 'voided');
    expect(voided).toMatchObject({ kind: 'record', type: 'record.voided', projectId });
    expect(changes.find((c) => c.id === projectId)).toMatchObject({ kind: 'project', projectId });
    expect(Number.isNaN(Date.parse(voided?.at ?? ''))).toBe(false);
  });

  it('resumes from a cursor: nothing new gives an empty page and the same position, then only the new change', async () => {
    const { cursor } = await everything(api);
    const idle = await page(api, `?cursor=${cursor}`);
    expect(idle).toMatchObject({ items: [], hasMore: false, nextCursor: cursor });
    const customer = await newCustomer(api, 'Late Customer');
    const next = await eventually(async () => {
      const reply = await page(api, `?cursor=${cursor}`);
      return reply.items.length ? reply : undefined;
    }, 10_000);
    expect(next.items.map(brief)).toEqual([`customer ${customer} created`]);
    expect(next.nextCursor).not.toBe(cursor);
    steps.push([`customer ${customer} created`]);
  });

  it('keeps only the kinds asked for with kinds=', async () => {
    const { changes } = await everything(api, '&kinds=lead,record');
    expect(changes.map(brief)).toEqual([
      `lead ${leadId} created`,
      `lead ${leadId} updated`,
      `record ${recordId} created`,
      `record ${recordId} updated`,
      `record ${recordId} voided`,
      `record ${otherRecordId} created`,
    ]);
  });

  it('clamps limit to 1..100 and says so', async () => {
    expect(await page(api, '?limit=500')).toMatchObject({ limit: 100, limitClamped: true });
    const one = await page(api, '?limit=0');
    expect(one).toMatchObject({ limit: 1, limitClamped: true, hasMore: true });
    expect(one.items).toHaveLength(1);
  });

  it('keeps tenants apart: another tenant sees none of these changes', async () => {
    const other = await platform.tenant('Other Co');
    const { changes } = await everything(other.api);
    const ours = new Set(steps.flat().map((line) => line.split(' ')[1]));
    expect(changes.filter((c) => ours.has(c.id))).toEqual([]);
  });
});

describe('GET /changes: scopes', () => {
  it('shows a narrowed token only the kinds it can read', async () => {
    const leadsOnly = await platform.token(tenantId, { role: 'Staff', permissions: { lead: ['read'] } });
    const { changes } = await everything(leadsOnly.api);
    expect(changes.map(brief)).toEqual([`lead ${leadId} created`, `lead ${leadId} updated`]);

    const crmReader = await platform.token(tenantId, {
      role: 'Viewer',
      permissions: { customer: ['read'], deal: ['read'] },
    });
    const kinds = new Set((await everything(crmReader.api)).changes.map((c) => c.kind));
    expect([...kinds].sort()).toEqual(['customer', 'deal']);
  });

  it('refuses kinds= naming a kind the token cannot read (403 with the scope) or no kind at all (400)', async () => {
    const leadsOnly = await platform.token(tenantId, { role: 'Staff', permissions: { lead: ['read'] } });
    const denied = await leadsOnly.api.get('/changes?kinds=lead,record');
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({
      code: 'out_of_scope',
      required: { action: 'read', kind: 'deliverable' },
    });
    const unknown = await api.get('/changes?kinds=lead,gizmo');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'field_invalid_enum', field: 'kinds' });
    expect(unknown.body.error).toContain('gizmo');
  });

  it("shows a project-restricted token only its projects' changes, and every lead and customer", async () => {
    const restricted = await platform.token(tenantId, { role: 'Manager', projectIds: [otherProjectId] });
    const { changes } = await everything(restricted.api);
    const ids = changes.map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining([otherProjectId, otherRecordId, leadId, customerId, dealId]));
    expect(ids).not.toContain(projectId);
    expect(ids).not.toContain(recordId);
    expect(changes.filter((c) => c.projectId !== null).every((c) => c.projectId === otherProjectId)).toBe(
      true,
    );
  });

  it('needs a token', async () => {
    expect((await platform.anonymous.get('/changes')).status).toBe(401);
  });

  it('says in the contract that the feed is eventually consistent', async () => {
    const openapi = (await platform.anonymous.get('/openapi.json')).body as unknown as {
      paths: Record<string, { get?: { description?: string } }>;
    };
    expect(openapi.paths['/api/v1/changes']?.get?.description).toMatch(/eventually consistent/);
  });
});

describe('GET /changes: cursors', () => {
  const refused = async (client: Client, cursor: string) => {
    const reply = await client.get(`/changes?cursor=${encodeURIComponent(cursor)}`);
    expect([reply.status, reply.body.code, reply.body.field]).toEqual([400, 'field_invalid', 'cursor']);
    expect(reply.body.error).toMatch(/cursor/);
  };

  it('refuses a malformed cursor, a list cursor and a cursor from another tenant with 400 field_invalid', async () => {
    await refused(api, 'not a cursor!');
    await refused(api, Buffer.from('hello').toString('base64url'));
    const leads = await api.get('/leads?limit=1');
    await refused(api, leads.body.nextCursor as string);
    const other = await platform.tenant('Cursor Thief Co');
    const theirs = (await page(other.api)).nextCursor;
    await refused(api, theirs);
    const ours = (await page(api)).nextCursor;
    await refused(other.api, ours);
  });

  it('refuses a cursor past the end of the feed', async () => {
    // The cursor is opaque to clients; the test forges one to prove a position past the head is refused.
    await refused(api, Buffer.from(`chg1:${tenantId}:999999`).toString('base64url'));
  });
});

describe('GET /changes, capture sessions', () => {
  it('shows a capture presign under the kind GET /resources names, with its project', async () => {
    const { api: client } = await platform.tenant('Capture Changes Co');
    const project = await newProject(client, await newCustomer(client));
    const presigned = await client.post(`/projects/${project.id}/capture/presign`, {
      frames: [{ name: 'scan.ply', contentType: 'application/x-ply', size: 1200 }],
    });
    const session = created(presigned, 'session');
    const kinds = (
      (await client.get('/resources')).body.kinds as { kind: string; endpoints: { read: string } }[]
    )
      .filter((kind) => kind.endpoints.read === 'GET /api/v1/projects/:id/capture/:sessionId')
      .map((kind) => kind.kind);
    expect(kinds).toEqual(['capture']);
    const change = await eventually(async () => {
      const { changes } = await everything(client, '&kinds=capture');
      return changes.find((c) => c.id === session.id);
    }, 10_000);
    expect(change).toMatchObject({ kind: 'capture', type: 'capture.presigned', projectId: project.id });
  });
});
