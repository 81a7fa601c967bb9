// References between records are checked at write time (issue 15): an id a write stores that names
// another record must name one in the same tenant. A missing id and an id of another tenant are
// refused alike (the endpoint's not_found, else field_invalid naming the field), so the answer
// never tells whether the id exists elsewhere; and nothing is written.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  newMember,
  startTestPlatform,
  type Body,
  type Client,
  type TestPlatform,
} from './support/harness.ts';
import { newCustomer, newProject } from './support/projects.ts';

let platform: TestPlatform;
let api: Client;
/** A token bound to a member: saved reports need one. */
let bound: Client;
let tenantId: string;
/** Ids that exist, but in another tenant. */
const foreign: Record<string, string> = {};
/** Ids of this tenant. */
const own: Record<string, string> = {};

const addMember = (tenant: string, email: string) => newMember(platform, tenant, email);

beforeAll(async () => {
  platform = await startTestPlatform();
  const other = await platform.tenant('Elsewhere');
  foreign.member = await addMember(other.tenantId, 'elsewhere@example.com');
  foreign.customer = await newCustomer(other.api);
  const deal = await other.api.post('/deals', { customerId: foreign.customer });
  foreign.deal = (deal.body.deal as { id: string }).id;
  ({ api, tenantId } = await platform.tenant('Referrer'));
  own.member = await addMember(tenantId, 'here@example.com');
  own.customer = await newCustomer(api);
  own.project = (await newProject(api, own.customer)).id;
  const manager = await newMember(platform, tenantId, 'manager@example.com', 'Manager');
  bound = (await platform.token(tenantId, { role: 'Manager', memberId: manager })).api;
});
afterAll(() => platform.stop());

/** A whole hour some days ahead, inside the booking horizon. */
const SOON = Math.ceil((Date.now() + 3 * 86_400_000) / 3_600_000) * 3_600_000;

interface Case {
  name: string;
  field: string;
  send: (id: string) => Promise<{ status: number; body: Body }>;
  /** The code for a bad reference on this endpoint. */
  code: 'not_found' | 'field_invalid';
  /** The id kind this field names, for the foreign probe (a probe without one sends a missing id only). */
  kind: 'member' | 'customer' | 'deal' | 'other';
}

const cases = (): Case[] => [
  {
    name: 'POST /leads ownerId',
    field: 'ownerId',
    kind: 'member',
    code: 'field_invalid',
    send: (id) => api.post('/leads', { name: 'Ref lead', ownerId: id }),
  },
  {
    name: 'POST /deals customerId',
    field: 'customerId',
    kind: 'customer',
    code: 'not_found',
    send: (id) => api.post('/deals', { customerId: id }),
  },
  {
    name: 'POST /projects customerId',
    field: 'customerId',
    kind: 'customer',
    code: 'not_found',
    send: (id) => api.post('/projects', { customerId: id, customerName: 'X' }),
  },
  {
    name: 'POST /projects/:id/records assignees',
    field: 'assignees',
    kind: 'member',
    code: 'not_found',
    send: (id) =>
      api.post(`/projects/${own.project}/records`, { kind: 'punch', title: 'x', assignees: [id] }),
  },
  {
    name: 'POST /bookings dealId',
    field: 'dealId',
    kind: 'deal',
    code: 'not_found',
    send: (id) =>
      api.post('/bookings', {
        customerId: own.customer,
        dealId: id,
        start: new Date(SOON).toISOString(),
        end: new Date(SOON + 3_600_000).toISOString(),
      }),
  },
  {
    name: 'POST /proposals dealId',
    field: 'dealId',
    kind: 'deal',
    code: 'not_found',
    send: (id) => api.post('/proposals', { customerId: own.customer, dealId: id, title: 'P' }),
  },
  {
    name: 'POST /invoices proposalId',
    field: 'proposalId',
    kind: 'other',
    code: 'not_found',
    send: (id) => api.post('/invoices', { customerId: own.customer, proposalId: id }),
  },
  {
    name: 'POST /projects/:id/designs sceneId',
    field: 'sceneId',
    kind: 'other',
    code: 'not_found',
    send: (id) => api.post(`/projects/${own.project}/designs`, { name: 'D', kind: 'site_plan', sceneId: id }),
  },
  {
    name: 'POST /projects/:id/process captureId',
    field: 'captureId',
    kind: 'other',
    code: 'not_found',
    send: (id) => api.post(`/projects/${own.project}/process`, { captureId: id }),
  },
  ...(['customerId', 'dealId'] as const).map((key): Case => ({
    name: `POST /reports figures[0].filter.${key}`,
    field: `figures[0].filter.${key}`,
    kind: key === 'customerId' ? 'customer' : 'deal',
    code: 'field_invalid',
    send: (id) =>
      bound.post('/reports', {
        name: 'Watching',
        figures: [{ label: 'Deals', resource: 'deals', measure: 'count', filter: { [key]: id } }],
      }),
  })),
  {
    name: 'POST /reports figures[0].filter.projectId',
    field: 'figures[0].filter.projectId',
    kind: 'other',
    code: 'field_invalid',
    send: (id) =>
      bound.post('/reports', {
        name: 'Watching',
        figures: [{ label: 'Jobs', resource: 'projects', measure: 'count', filter: { projectId: id } }],
      }),
  },
];

describe('a write naming a record that is not in the tenant', () => {
  it.each(cases().map((c) => [c.name, c] as const))(
    '%s is refused, missing or foreign alike',
    async (_, c) => {
      const missingId = `${c.kind.slice(0, 3)}_missing`;
      const foreignId = foreign[c.kind] ?? missingId;
      const missing = await c.send(missingId);
      const elsewhere = foreignId === missingId ? missing : await c.send(foreignId);
      for (const reply of [missing, elsewhere]) {
        expect([reply.status, reply.body]).toEqual([
          c.code === 'not_found' ? 404 : 400,
          expect.objectContaining({ ok: false, code: c.code }),
        ]);
        expect(reply.body).toMatchObject({ ok: false, code: c.code, retryable: false });
        if (c.kind === 'member' || c.code === 'field_invalid') expect(reply.body.field).toBe(c.field);
      }
      // The same sentence for both, but for the id itself: nothing tells them apart.
      expect(String(elsewhere.body.error).replace(foreignId, 'ID')).toBe(
        String(missing.body.error).replace(missingId, 'ID'),
      );
    },
  );

  it('accepts the members and customers of the tenant', async () => {
    expect((await api.post('/leads', { name: 'Owned', ownerId: own.member })).status).toBe(201);
    const report = await bound.post('/reports', {
      name: 'Mine',
      figures: [
        { label: 'Deals', resource: 'deals', measure: 'count', filter: { customerId: own.customer } },
      ],
    });
    expect(report.status).toBe(201);
    const record = await api.post(`/projects/${own.project}/records`, {
      kind: 'punch',
      title: 'Assigned',
      assignees: [own.member],
    });
    expect(record.status).toBe(201);
  });
});
