// Projects through the handlers: create across crm (canonical name, linked deal, exactly once by
// key), events in the outbox, tenant isolation, the lifecycle and content reports.
import { PROJECT_LIFECYCLE_MACHINE } from '@fieldops/contracts';
import { DEALS } from '@fieldops/crm/collections';
import { pagesBothWays } from '@fieldops/kit/testing';
import { projects } from '@fieldops/proto';
import { PROJECTS, SITES } from '../src/collections.ts';
import { applyRename } from '../src/customers/customer-names.projection.ts';
import { createProjectHandlers } from '../src/index.ts';
import { ctx, openTestProjects, outboxEvents, refusal, TENANT_B, type TestProjects } from './harness.ts';

describe('projects', () => {
  let t: TestProjects;
  beforeEach(async () => {
    t = await openTestProjects();
  });
  afterEach(() => t.close());

  it('creates the project and its site in one commit, with the deal opened in crm', async () => {
    const customerId = await t.customer('Acme Quarry Ltd');
    const created = await t.projects.createProject(
      { customerId, customerName: 'acme', siteAddress: '1 Pit Road' },
      ctx(),
    );
    expect(created.project).toMatchObject({
      customerName: 'Acme Quarry Ltd',
      vertical: 'roofing',
      status: 'planned',
    });
    expect(created.meta).toMatchObject({ created: true, replayed: false });
    expect(await t.store.get(PROJECTS, 'ten_alpha', created.project?.id ?? '')).not.toBeNull();
    expect(await t.store.get(SITES, 'ten_alpha', created.site?.id ?? '')).toMatchObject({
      address: '1 Pit Road',
    });
    const deal = await t.crmStore.get(DEALS, 'ten_alpha', created.deal?.id ?? '');
    expect(deal).toMatchObject({ customerId, stage: 'lead', valueCents: 0 });
    const events = await outboxEvents(t.store);
    expect(events.map((event) => event.type)).toEqual(['project.created', 'site.created']);
  });

  it('opens the deal once per key, so a retried create after a lost commit reuses it', async () => {
    const customerId = await t.customer();
    const keyed = ctx({ idempotencyKey: 'op-1' });
    const first = await t.crm.openDeal(customerId, keyed);
    const retried = await t.crm.openDeal(customerId, ctx({ idempotencyKey: 'op-1' }));
    expect(retried.id).toBe(first.id);
    const unkeyed = await t.crm.openDeal(customerId, ctx());
    expect(unkeyed.id).not.toBe(first.id);
  });

  it('answers itemsAsJson with the JSON of exactly what items decode to, page by page', async () => {
    const customerId = await t.customer('Acme Quarry Ltd');
    for (let i = 0; i < 3; i++) {
      await t.projects.createProject(
        { customerId, customerName: 'Acme', siteAddress: `${i} Pit Road` },
        ctx(),
      );
    }
    const pages = await pagesBothWays(
      (page) => t.projects.listProjects({ page }, ctx()),
      projects.ProjectSummary,
    );
    expect(pages).toHaveLength(2);
    for (const page of pages) expect(page.json).toEqual(page.items);
  });

  it('keeps tenants apart: another tenant neither sees the project nor can use the customer', async () => {
    const customerId = await t.customer();
    const created = await t.projects.createProject({ customerId, customerName: 'Acme' }, ctx());
    const id = created.project?.id ?? '';
    expect((await refusal(t.projects.getProject({ id }, ctx({ tenantId: TENANT_B })))).code).toBe(
      'not_found',
    );
    expect((await t.projects.listProjects({}, ctx({ tenantId: TENANT_B }))).items).toEqual([]);
    const foreign = t.projects.createProject(
      { customerId, customerName: 'Acme' },
      ctx({ tenantId: TENANT_B }),
    );
    expect((await refusal(foreign)).code).toBe('not_found');
  });

  it('moves status only through the machine and emits project.status_changed', async () => {
    const customerId = await t.customer();
    const id =
      (await t.projects.createProject({ customerId, customerName: 'Acme' }, ctx())).project?.id ?? '';
    const moved = await t.projects.fireLifecycleTrigger({ id, trigger: 'schedule_assigned' }, ctx());
    expect(moved.project?.status).toBe('scheduled');
    const cancel = await refusal(t.projects.fireLifecycleTrigger({ id, trigger: 'cancel' }, ctx()));
    expect(cancel.code).toBe('field_invalid_enum');
    expect(cancel.message).toContain('portal');
    const illegal = await refusal(t.projects.fireLifecycleTrigger({ id, trigger: 'close' }, ctx()));
    expect(illegal.extras['legalTriggers']).toEqual(PROJECT_LIFECYCLE_MACHINE.legalTriggers('scheduled'));
    const types = (await outboxEvents(t.store)).map((event) => event.type);
    expect(types).toContain('project.status_changed');
  });

  it('takes content reports as absolute counts and refuses impossible ones', async () => {
    const customerId = await t.customer();
    const id =
      (await t.projects.createProject({ customerId, customerName: 'Acme' }, ctx())).project?.id ?? '';
    const report = { id, designs: 1, deliverables: 2, packagedDeliverables: 1 };
    expect((await t.projects.reportProjectContent(report, ctx())).meta?.replayed).toBe(false);
    expect((await t.projects.reportProjectContent(report, ctx())).meta?.replayed).toBe(true);
    const impossible = { id, designs: 0, deliverables: 1, packagedDeliverables: 2 };
    expect((await refusal(t.projects.reportProjectContent(impossible, ctx()))).code).toBe('field_invalid');
    const negative = { id, designs: -1, deliverables: 0, packagedDeliverables: 0 };
    expect((await refusal(t.projects.reportProjectContent(negative, ctx()))).code).toBe('field_invalid');
  });

  it("renames only that customer's projects in that tenant, and ignores other events", async () => {
    const customerId = await t.customer('Before Ltd');
    const other = await t.customer('Other Ltd');
    const mine = await t.projects.createProject({ customerId, customerName: 'x' }, ctx());
    const theirs = await t.projects.createProject({ customerId: other, customerName: 'x' }, ctx());
    const record = (value: unknown) => ({
      topic: 'fieldops.crm.events',
      partition: 0,
      offset: 0,
      key: 'ten_alpha',
      value,
      headers: {},
      timestamp: new Date().toISOString(),
    });
    const rename = {
      type: 'customer.updated',
      tenantId: 'ten_alpha',
      data: { customer: { id: customerId, name: 'After Ltd', etag: `${customerId}:v2` } },
    };
    await applyRename(t.store, record({ ...rename, type: 'lead.updated' }));
    await applyRename(t.store, record({ ...rename, tenantId: TENANT_B }));
    expect((await t.projects.getProject({ id: mine.project?.id ?? '' }, ctx())).project?.customerName).toBe(
      'Before Ltd',
    );
    await applyRename(t.store, record(rename));
    await applyRename(t.store, record(rename));
    const after = await t.projects.getProject({ id: mine.project?.id ?? '' }, ctx());
    expect(after.project).toMatchObject({ customerName: 'After Ltd', etag: `${mine.project?.id}:v2` });
    const untouched = await t.projects.getProject({ id: theirs.project?.id ?? '' }, ctx());
    expect(untouched.project?.customerName).toBe('Other Ltd');
  });

  it('leaves the name alone when an old rename is republished after a newer one', async () => {
    const customerId = await t.customer('First Ltd');
    const created = await t.projects.createProject({ customerId, customerName: 'x' }, ctx());
    const id = created.project?.id ?? '';
    const renamed = (name: string, version: number) => ({
      topic: 'fieldops.crm.events',
      partition: 0,
      offset: version,
      key: 'ten_alpha',
      value: {
        type: 'customer.updated',
        tenantId: 'ten_alpha',
        data: { customer: { id: customerId, name, etag: `${customerId}:v${version}` } },
      },
      headers: {},
      timestamp: new Date().toISOString(),
    });
    // A rename not newer than the customer the project was made from (v1) changes nothing.
    await applyRename(t.store, renamed('Older Ltd', 1));
    expect((await t.projects.getProject({ id }, ctx())).project).toMatchObject({
      customerName: 'First Ltd',
      etag: `${id}:v1`,
    });
    await applyRename(t.store, renamed('Second Ltd', 2));
    await applyRename(t.store, renamed('Third Ltd', 3));
    // A late duplicate of v2 (a replayed dead letter, a republished outbox): no-op.
    await applyRename(t.store, renamed('Second Ltd', 2));
    expect((await t.projects.getProject({ id }, ctx())).project).toMatchObject({
      customerName: 'Third Ltd',
      etag: `${id}:v3`,
    });
    // A change that kept the name (v4) moves the mark on, so a late v3 cannot come back either.
    await applyRename(t.store, renamed('Third Ltd', 4));
    await applyRename(t.store, renamed('Second Ltd', 3));
    expect((await t.projects.getProject({ id }, ctx())).project).toMatchObject({
      customerName: 'Third Ltd',
      etag: `${id}:v3`,
    });
  });

  it('after a commit lost once (a crash after the deal opened), a keyed retry makes one project and one deal', async () => {
    const customerId = await t.customer();
    let failNext = true;
    // The real store, whose next commit fails the way a killed process loses it.
    const crashing = Object.create(t.store) as typeof t.store;
    crashing.commit = async (tenantId, ops) => {
      if (failNext) {
        failNext = false;
        throw new Error('process killed before the commit');
      }
      return t.store.commit(tenantId, ops);
    };
    const handlers = createProjectHandlers(crashing, { crm: t.crm });
    const request = { customerId, customerName: 'Acme', opId: 'op-crash-1' };
    await expect(handlers.createProject(request, ctx({ idempotencyKey: 'op-crash-1' }))).rejects.toThrow(
      'killed',
    );
    const retried = await handlers.createProject(request, ctx({ idempotencyKey: 'op-crash-1' }));
    expect(retried.meta?.created).toBe(true);
    const deals = await t.crmStore.find(DEALS, 'ten_alpha', { customerId });
    expect(deals.map((deal) => deal.id)).toEqual([retried.deal?.id]);
    expect(await t.store.count(PROJECTS, 'ten_alpha', { customerId })).toBe(1);
  });
});
