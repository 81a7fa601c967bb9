// listLeads and getLead: filters, newest first, keyset paging, tenant isolation.
import { ctx, openTestCrm, refusal, type TestCrm } from './harness.ts';
import { pagesBothWays } from '@fieldops/kit/testing';
import { crm } from '@fieldops/proto';

describe('lead reads', () => {
  let t: TestCrm;
  beforeEach(async () => {
    t = await openTestCrm();
  });
  afterEach(() => t.close());

  const seed = async () => {
    const make = async (fields: Parameters<TestCrm['crm']['createLead']>[0]) => {
      const { lead } = await t.crm.createLead(fields, ctx());
      if (!lead) throw new Error('no lead');
      return lead;
    };
    const ana = await make({ name: 'Ana Roofing', email: 'ana@roof.io', ownerId: 'mem_1' });
    const bo = await make({
      name: 'Bo',
      phone: '+44 7700 900123',
      message: 'Need a DRONE survey of a quarry',
    });
    const cy = await make({ name: 'Cy', email: 'cy@farm.io', ownerId: 'mem_2' });
    await t.crm.updateLead({ id: cy.id, ifMatch: '*', status: 'Lost' }, ctx());
    return { ana, bo, cy };
  };

  const ids = (page: { items: { id: string }[] }) => page.items.map((item) => item.id);

  it('lists newest first', async () => {
    const { ana, bo, cy } = await seed();
    const page = await t.crm.listLeads({}, ctx());
    expect(new Set(ids(page))).toEqual(new Set([ana.id, bo.id, cy.id]));
    const created = page.items.map((item) => item.createdAt);
    expect([...created].sort().reverse()).toEqual(created);
    expect(page.nextCursor).toBe('');
  });

  it('filters by q over name, email, phone and message, case-insensitively', async () => {
    const { ana, bo, cy } = await seed();
    expect(ids(await t.crm.listLeads({ q: 'roof' }, ctx()))).toEqual([ana.id]);
    expect(ids(await t.crm.listLeads({ q: 'FARM.IO' }, ctx()))).toEqual([cy.id]);
    expect(ids(await t.crm.listLeads({ q: '7700' }, ctx()))).toEqual([bo.id]);
    expect(ids(await t.crm.listLeads({ q: 'drone survey' }, ctx()))).toEqual([bo.id]);
    expect(ids(await t.crm.listLeads({ q: 'nobody' }, ctx()))).toEqual([]);
  });

  it('filters by status and owner, combined with q', async () => {
    const { ana, bo, cy } = await seed();
    expect(new Set(ids(await t.crm.listLeads({ status: 'New' }, ctx())))).toEqual(new Set([ana.id, bo.id]));
    expect(ids(await t.crm.listLeads({ status: 'Lost' }, ctx()))).toEqual([cy.id]);
    expect(ids(await t.crm.listLeads({ ownerId: 'mem_1' }, ctx()))).toEqual([ana.id]);
    expect(ids(await t.crm.listLeads({ ownerId: 'mem_2', status: 'New' }, ctx()))).toEqual([]);
    expect(ids(await t.crm.listLeads({ status: 'New', q: 'ana' }, ctx()))).toEqual([ana.id]);
  });

  it('answers itemsAsJson with the JSON of exactly what items decode to, for the gateway to splice', async () => {
    await seed();
    const pages = await pagesBothWays((page) => t.crm.listLeads({ page }, ctx()), crm.Lead);
    expect(pages).toHaveLength(2);
    for (const page of pages) expect(page.json).toEqual(page.items);
  });

  it('pages with the limit given, never skipping or repeating', async () => {
    for (let i = 0; i < 7; i++) await t.crm.createLead({ name: `Lead ${i}` }, ctx());
    const seen: string[] = [];
    let cursor = '';
    let pages = 0;
    do {
      const page = await t.crm.listLeads({ page: { cursor, limit: 3 } }, ctx());
      expect(page.items.length).toBeLessThanOrEqual(3);
      seen.push(...ids(page));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
  });

  it('refuses a cursor that is not one of ours with field_invalid', async () => {
    const error = await refusal(t.crm.listLeads({ page: { cursor: 'garbage', limit: 10 } }, ctx()));
    expect(error.code).toBe('field_invalid');
    expect(error.extras).toEqual({ field: 'cursor' });
  });

  it('never shows another tenant its leads', async () => {
    const { ana } = await seed();
    const other = ctx({ tenantId: 'ten_beta' });
    expect((await t.crm.listLeads({}, other)).items).toEqual([]);
    expect((await t.crm.listLeads({ q: 'ana' }, other)).items).toEqual([]);
    expect((await refusal(t.crm.getLead({ id: ana.id }, other))).code).toBe('not_found');
  });

  it('getLead shows next statuses and convertibility per status', async () => {
    const { cy } = await seed();
    const lost = await t.crm.getLead({ id: cy.id }, ctx());
    expect(lost.nextStatuses).toEqual(['New']);
    expect(lost.convertible).toBe(false);
    expect(lost.inboundMessages).toEqual([]);
    expect(lost.lead?.etag).toBe(`${cy.id}:v2`);
  });
});
