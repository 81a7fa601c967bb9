// Client page links through the handlers: a link opens its page until it expires, then never.
import { openClientPageHandlers } from '../src/index.ts';
import { ctx, openTestProjects, refusal } from './harness.ts';
import type { TestProjects } from './harness.ts';

describe('client page links', () => {
  let t: TestProjects;
  beforeEach(async () => {
    t = await openTestProjects();
  });
  afterEach(() => t.close());

  it('open the page until they expire, then answer not_found saying so', async () => {
    let now = Date.parse('2026-05-01T00:00:00Z');
    const pages = await openClientPageHandlers(t.store, t.crm, { linkTtlMs: 60_000, now: () => now });
    const customerId = await t.customer('Tidewater Solar');
    await t.projects.createProject({ customerId, customerName: 'Tidewater', name: 'Array A' }, ctx());
    const list = await pages.listClientPages({ kind: 'project' }, ctx());
    const token = decodeURIComponent(list.items[0]?.href.split('token=')[1] ?? '');
    expect(list.items[0]?.expiresAt).toBe('2026-05-01T00:01:00.000Z');

    now += 59_000;
    const view = await pages.openClientPage({ token }, ctx({ tenantId: '' }));
    expect(view).toMatchObject({ kind: 'project', title: 'Array A', customerName: 'Tidewater Solar' });
    expect(view.projects.map((project) => project.status)).toEqual(['planned']);
    // The gateway reads the page's scenes and quantities in the tenant the link names.
    expect(view.tenantId).toBe(ctx().tenant?.id);
    expect(view.projects[0]?.id).toBe(list.items[0]?.id);
    expect(view.customerId).toBe(customerId);

    now += 1_000;
    const expired = await refusal(pages.openClientPage({ token }, ctx({ tenantId: '' })));
    expect(expired.code).toBe('not_found');
    expect(expired.message).toContain('expired');
  });

  it('signs with a key kept in the store: links survive a restart of the service', async () => {
    const first = await openClientPageHandlers(t.store, t.crm);
    const customerId = await t.customer('Kept Key Ltd');
    const list = await first.listClientPages({ kind: 'customer' }, ctx());
    const token = decodeURIComponent(list.items[0]?.href.split('token=')[1] ?? '');
    const reopened = await openClientPageHandlers(t.store, t.crm);
    const view = await reopened.openClientPage({ token }, ctx({ tenantId: '' }));
    expect(view).toMatchObject({ kind: 'customer', title: 'Kept Key Ltd', projects: [], customerId });
    expect(list.items[0]?.id).toBe(customerId);
  });
});
