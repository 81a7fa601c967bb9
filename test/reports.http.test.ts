// Saved reports over HTTP (ENDPOINTS rows 45–46, and POST /reports, which saves one): definitions
// only, private to the member who saved them; a Manager token sees the tenant's, a Staff token its
// member's own, an unbound token is refused with 409 principal_unbound.
import { type Body, type Client } from './support/harness.ts';
import { suiteTenant } from './support/suite-tenant.ts';

let alice: Client;
let aliceId: string;
let bob: Client;
let manager: Client;
let managerId: string;

async function member(name: string, email: string, role: string): Promise<{ api: Client; memberId: string }> {
  const created = await platform.admin.post(`/tenants/${tenantId}/members`, { name, email, role });
  const memberId = (created.body.member as { id: string }).id;
  const token = await platform.token(tenantId, { role, memberId });
  return { api: token.api, memberId };
}

const pipelineReport = {
  name: 'Pipeline this month',
  description: 'What the sales meeting looks at.',
  figures: [
    { label: 'New leads', resource: 'leads', measure: 'count', filter: { status: 'New' } },
    {
      label: 'Open deal value',
      resource: 'deals',
      measure: 'sum',
      field: 'valueCents',
      filter: { stage: 'open' },
    },
  ],
};

const { platform, api: unbound, tenantId } = await suiteTenant('Reports Co');
beforeAll(async () => {
  ({ api: alice, memberId: aliceId } = await member('Alice', 'alice@reports.test', 'Staff'));
  ({ api: bob } = await member('Bob', 'bob@reports.test', 'Staff'));
  ({ api: manager, memberId: managerId } = await member('Mona', 'mona@reports.test', 'Manager'));
});

const report = (reply: { body: Body }) => reply.body.report as Body & { id: string };
const items = (reply: { body: Body }) => reply.body.items as (Body & { id: string })[];

describe('saving a report (POST /reports)', () => {
  it("saves a definition for the token's member: figures and the queries behind them, no values", async () => {
    const saved = await alice.post('/reports', pipelineReport);
    expect(saved.status).toBe(201);
    expect(report(saved)).toMatchObject({ ...pipelineReport, ownerMemberId: aliceId });
    const read = await alice.get(`/reports/${report(saved).id}`);
    expect(read.status).toBe(200);
    expect(report(read)).toEqual(report(saved));
    expect(JSON.stringify(read.body)).not.toMatch(/"value"|"total"|"result"/);
  });

  it('replays with the same opId and saves a second without a key', async () => {
    const first = await bob.post('/reports', { ...pipelineReport, name: 'Keyed', opId: 'rpt-1' });
    const again = await bob.post('/reports', { ...pipelineReport, name: 'Keyed', opId: 'rpt-1' });
    expect([first.status, again.status, again.body.replayed]).toEqual([201, 200, true]);
    expect(report(again).id).toBe(report(first).id);
  });

  it('refuses bad definitions with the field named, and saves nothing', async () => {
    const before = items(await alice.get('/reports?limit=100')).length;
    const cases: [Body, string][] = [
      [{ ...pipelineReport, figures: [] }, 'field_invalid'],
      [
        { ...pipelineReport, figures: [{ label: 'x', resource: 'sheep', measure: 'count' }] },
        'field_invalid_enum',
      ],
      [{ ...pipelineReport, figures: [{ label: 'x', resource: 'deals', measure: 'sum' }] }, 'field_required'],
      [{ ...pipelineReport, values: [1] }, 'unknown_field'],
    ];
    for (const [body, code] of cases) {
      const refused = await alice.post('/reports', body);
      expect([refused.status, refused.body.code]).toEqual([400, code]);
    }
    expect(items(await alice.get('/reports?limit=100'))).toHaveLength(before);
  });

  it('refuses an unbound token with 409 principal_unbound and saves nothing', async () => {
    const refused = await unbound.post('/reports', pipelineReport);
    expect([refused.status, refused.body.code]).toEqual([409, 'principal_unbound']);
  });
});

describe('GET /reports and GET /reports/:id', () => {
  let alices: string;
  let bobs: string;
  let monas: string;

  beforeAll(async () => {
    alices = report(await alice.post('/reports', { ...pipelineReport, name: 'Alice private' })).id;
    bobs = report(await bob.post('/reports', { ...pipelineReport, name: 'Bob private' })).id;
    monas = report(await manager.post('/reports', { ...pipelineReport, name: 'Mona board pack' })).id;
  });

  it("a Staff token lists only its member's own reports, newest first", async () => {
    const listed = items(await alice.get('/reports?limit=100'));
    expect(listed.map((r) => r.id)).toContain(alices);
    expect(listed.map((r) => r.id)).not.toContain(bobs);
    expect(listed.map((r) => r.id)).not.toContain(monas);
    expect(new Set(listed.map((r) => r.ownerMemberId))).toEqual(new Set([aliceId]));
    const times = listed.map((r) => r.createdAt as string);
    expect([...times].sort().reverse()).toEqual(times);
    expect(listed[0]?.id).toBe(alices);
  });

  it("a Staff token cannot read another member's report: 404, as if it did not exist", async () => {
    const foreign = await alice.get(`/reports/${bobs}`);
    expect([foreign.status, foreign.body.code]).toEqual([404, 'not_found']);
    expect((await bob.get(`/reports/${bobs}`)).status).toBe(200);
  });

  it("a Manager token sees the tenant's reports, every member's", async () => {
    const listed = items(await manager.get('/reports?limit=100')).map((r) => r.id);
    expect(listed).toEqual(expect.arrayContaining([alices, bobs, monas]));
    expect(report(await manager.get(`/reports/${bobs}`)).ownerMemberId).not.toBe(managerId);
  });

  it('pages with cursor and limit', async () => {
    const first = await manager.get('/reports?limit=2');
    expect(items(first)).toHaveLength(2);
    const second = await manager.get(
      `/reports?limit=2&cursor=${encodeURIComponent(String(first.body.nextCursor))}`,
    );
    expect(items(second)[0]?.id).not.toBe(items(first)[0]?.id);
    const bad = await manager.get('/reports?cursor=nonsense');
    expect([bad.status, bad.body.code]).toEqual([400, 'field_invalid']);
  });

  it('refuses an unbound token with 409 principal_unbound on both reads, even a Manager one', async () => {
    const listed = await unbound.get('/reports');
    expect([listed.status, listed.body.code]).toEqual([409, 'principal_unbound']);
    const one = await unbound.get(`/reports/${alices}`);
    expect([one.status, one.body.code]).toEqual([409, 'principal_unbound']);
  });

  it('answers 404 for an unknown id and for another tenant’s report', async () => {
    expect((await manager.get('/reports/rpt_missing')).status).toBe(404);
    const other = await platform.tenant('Other Reports Co');
    const created = await platform.admin.post(`/tenants/${other.tenantId}/members`, {
      name: 'Olga',
      email: 'olga@other.test',
      role: 'Manager',
    });
    const olga = await platform.token(other.tenantId, {
      role: 'Manager',
      memberId: (created.body.member as { id: string }).id,
    });
    expect((await olga.api.get(`/reports/${alices}`)).status).toBe(404);
  });

  it('says so in /capabilities: refused for an unbound token, allowed for a bound one', async () => {
    const capability = async (client: Client) =>
      ((await client.get('/capabilities')).body.endpoints as Body[]).find(
        (e) => e.operationId === 'listReports',
      );
    expect(await capability(unbound)).toMatchObject({
      allowed: false,
      refusal: { code: 'principal_unbound' },
    });
    expect(await capability(alice)).toMatchObject({ allowed: true });
  });
});
