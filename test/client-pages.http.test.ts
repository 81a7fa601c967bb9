// Client pages through HTTP: endpoint row 41 and the spec's Client page (one per project and one
// per customer, always; assembled on read; the link's token minted by the server), and the page a
// link opens in a browser.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { PNG } from 'pngjs';
import { finalizedPointCapture, type RunBody } from './support/capture.ts';
import { eventually, startTestPlatform, type Body } from './support/harness.ts';
import { itInProcess, suiteTenant } from './support/suite-tenant.ts';
import { conePly, measureCone, measurementsRpc, square } from './support/measurements.ts';
import { newCustomer, newProject, type ProjectBody } from './support/projects.ts';

let project: ProjectBody;

type PageLink = Body & { kind: string; id: string; title: string; href: string; expiresAt: string };

const { platform, api, tenantId } = await suiteTenant('Pages Co');
const customerId = await newCustomer(api, 'Harbour Roofing <Ltd>');
beforeAll(async () => {
  project = await newProject(api, customerId, { name: 'Warehouse roof', siteAddress: '4 Dock St' });
  await newProject(api, customerId, { name: 'Office roof' });
});

const items = (reply: { body: Body }) => reply.body.items as PageLink[];
const open = (href: string) => fetch(`${platform.url}${href}`);

describe('GET /client-pages', () => {
  it('lists one page per project and one per customer, projects first', async () => {
    const reply = await api.get('/client-pages');
    expect(reply.status).toBe(200);
    expect(items(reply).map((page) => [page.kind, page.title])).toEqual([
      ['project', 'Office roof'],
      ['project', 'Warehouse roof'],
      ['customer', 'Harbour Roofing <Ltd>'],
    ]);
    for (const page of items(reply)) {
      expect(page.href).toMatch(/^\/client\/v1\/page\?token=/);
      expect(Date.parse(page.expiresAt)).toBeGreaterThan(Date.now());
    }
  });

  it('filters by kind and pages across both lists', async () => {
    expect(items(await api.get('/client-pages?kind=customer')).map((page) => page.id)).toEqual([customerId]);
    expect(items(await api.get('/client-pages?kind=project'))).toHaveLength(2);
    const seen: string[] = [];
    let cursor = '';
    for (let guard = 0; guard < 5; guard++) {
      const reply = await api.get(
        `/client-pages?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      seen.push(...items(reply).map((page) => page.id));
      if (!reply.body.nextCursor) break;
      cursor = String(reply.body.nextCursor);
    }
    expect(seen).toHaveLength(3);
    expect(seen).toContain(customerId);
  });

  it('refuses an unknown kind, a foreign cursor and an unknown parameter', async () => {
    expect((await api.get('/client-pages?kind=invoice')).body.code).toBe('field_invalid_enum');
    expect((await api.get('/client-pages?cursor=bogus')).body.code).toBe('field_invalid');
    expect((await api.get('/client-pages?token=abc')).body.code).toBe('unknown_field');
  });

  it('gives a project-restricted token its projects’ pages only', async () => {
    const restricted = await platform.token(tenantId, { role: 'Manager', projectIds: [project.id] });
    const pages = items(await restricted.api.get('/client-pages'));
    expect(pages.map((page) => [page.kind, page.id])).toEqual([['project', project.id]]);
  });
});

describe('opening a client page link', () => {
  const linkOf = async (kind: string, id: string) => {
    const pages = items(await api.get(`/client-pages?kind=${kind}`));
    const page = pages.find((candidate) => candidate.id === id);
    if (!page) throw new Error(`no ${kind} page for ${id}`);
    return page.href;
  };

  it('opens the project page read-only in a browser, with the project’s current status', async () => {
    const href = await linkOf('project', project.id);
    await api.post(`/projects/${project.id}/lifecycle`, { trigger: 'schedule_assigned' });
    const res = await open(href);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await res.text();
    expect(html).toContain('Warehouse roof');
    expect(html).toContain('data-status="scheduled"');
    expect(html).toContain('4 Dock St');
    expect(html).toContain('Harbour Roofing &#60;Ltd&#62;');
    expect(html).not.toContain('<Ltd>');
    expect(html).not.toMatch(/<script|<form/i);
  });

  it('opens the customer page with every project of the customer', async () => {
    const html = await (await open(await linkOf('customer', customerId))).text();
    expect(html).toContain('Warehouse roof');
    expect(html).toContain('Office roof');
  });

  it('shows a project without captures as such, with no picture, and lists open proposals and invoices only', async () => {
    const html = await (await open(await linkOf('project', project.id))).text();
    expect(html).toContain('No captures yet.');
    expect(html).toContain('No scene yet');
    expect(html).toContain('No quantities measured yet.');
    expect(html).not.toContain('<img');
    const picture = await open((await linkOf('project', project.id)).replace('/page?', '/page/site.png?'));
    expect(picture.status).toBe(404);
    expect(picture.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await picture.text()).toContain('no site picture');

    const lines = [{ description: 'Roof survey flight', quantity: 1, unitPriceCents: 45000 }];
    const customer = await api.post('/customers', { name: 'Billing Ltd', email: 'billing@pages.test' });
    const billed = (customer.body.customer as { id: string }).id;
    const draft = await api.post('/proposals', { customerId: billed, title: 'Draft proposal', lines });
    const sent = await api.post('/proposals', { customerId: billed, title: 'Sent proposal', lines });
    const sentId = (sent.body.proposal as { id: string }).id;
    const first = await api.post(`/proposals/${sentId}/send`);
    const confirmed = await api.post(
      `/proposals/${sentId}/send`,
      {},
      { [String(first.body.confirmHeader)]: String(first.body.confirmToken) },
    );
    expect([draft.status, confirmed.status]).toEqual([201, 200]);
    await api.post('/invoices', { customerId: billed, title: 'Draft invoice', lines });
    const customerHtml = await (await open(await linkOf('customer', billed))).text();
    expect(customerHtml).toContain('Sent proposal');
    expect(customerHtml).not.toContain('Draft proposal');
    expect(customerHtml).not.toContain('Draft invoice');
    expect(customerHtml).toContain('Open invoices</h2><p>None open.');
  });

  it('outlines every region of the latest snapshot in its legend colour, drawn regions included', async () => {
    const measured = await newProject(api, customerId, { name: 'Gravel yard' });
    const session = await finalizedPointCapture(api, measured.id, conePly(4));
    await eventually(async () => {
      const run = (await api.get(`/projects/${measured.id}/runs/${session.runId}`)).body.run as RunBody;
      if (run.status === 'failed') throw new Error(`run failed: ${JSON.stringify(run)}`);
      return run.status === 'succeeded' ? run : undefined;
    }, 30_000);
    const href = await linkOf('project', measured.id);
    const legendOf = (html: string) =>
      [
        ...html.matchAll(
          /class="region-outline" data-region-id="([^"]+)" data-outlined="true">.*?border-color:(#[0-9a-f]{6})/g,
        ),
      ].map(([, id, colour]) => ({ id: id!, colour: colour! }));
    const picture = async () =>
      PNG.sync.read(Buffer.from(await (await open(href.replace('/page?', '/page/site.png?'))).arrayBuffer()));
    const pixelsOf = (png: PNG, hex: string) => {
      const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
      let count = 0;
      for (let i = 0; i < png.data.length; i += 4) {
        if (png.data[i] === r && png.data[i + 1] === g && png.data[i + 2] === b) count++;
      }
      return count;
    };

    const whole = legendOf(await (await open(href)).text());
    expect(whole.map((item) => item.id)).toEqual(['site']);
    const before = await picture();
    expect(pixelsOf(before, whole[0]!.colour)).toBeGreaterThan(100);

    const rpc = measurementsRpc(platform);
    try {
      await rpc.measureCapture(
        {
          projectId: measured.id,
          runId: `drawn_${session.id}`,
          captureId: session.id,
          files: session.frames.map((f) => ({ key: f.key, name: 'stockpile.ply' })),
          sensor: 'lidar',
          control: 'gcp',
          regions: [
            { id: 'pile-a', name: 'Stockpile A', polygon: square(7, 7, 26).map(([x, y]) => ({ x, y })) },
            { id: 'pad', name: 'Pad', polygon: square(3, 3, 34).map(([x, y]) => ({ x, y })) },
          ],
        },
        tenantId,
      );
      const html = await (await open(href)).text();
      const drawn = legendOf(html);
      expect(drawn.map((item) => item.id)).toEqual(['pile-a', 'pad']);
      expect(html).toContain('2 measured regions outlined');
      expect(html).not.toContain('not outlined');
      const after = await picture();
      // The second colour marks the drawn pad only: the whole-capture picture hardly uses it.
      expect(pixelsOf(before, drawn[1]!.colour)).toBeLessThan(100);
      for (const { colour } of drawn) expect(pixelsOf(after, colour)).toBeGreaterThan(100);

      // A snapshot recorded before outlines were stored: listed, said to be not outlined, none drawn.
      const older = await measureCone(4);
      await rpc.recordQuantities(
        {
          projectId: measured.id,
          runId: `older_${session.id}`,
          captureId: session.id,
          quantities: { ...older, regions: older.regions.map((r) => ({ ...r, outline: [] })) },
        },
        tenantId,
      );
      const unoutlined = await (await open(href)).text();
      expect(unoutlined).toContain('0 measured regions outlined');
      expect(unoutlined).toMatch(
        /data-region-id="pile-a" data-outlined="false">Stockpile A <span class="muted">\(not outlined/,
      );
    } finally {
      rpc.close();
    }
  }, 90_000);

  it('refuses a tampered, truncated or missing token with a 404 page', async () => {
    const href = await linkOf('project', project.id);
    const token = decodeURIComponent(href.split('token=')[1] ?? '');
    const [version, key, payload, mac] = token.split('.') as [string, string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const otherPayload = Buffer.from(JSON.stringify({ ...claims, i: 'proj_other' })).toString('base64url');
    const tampered = `${version}.${key}.${otherPayload}.${mac}`;
    for (const bad of [tampered, token.slice(0, -3), `${token}x`]) {
      const res = await open(`/client/v1/page?token=${encodeURIComponent(bad)}`);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain('not valid');
    }
    expect((await open('/client/v1/page')).status).toBe(404);
    expect((await open(`/client/v1/page/site.png?token=${encodeURIComponent(tampered)}`)).status).toBe(404);
  });

  itInProcess('refuses a link once it has expired, saying so', async () => {
    // A platform whose links live one second: the link is minted, then opened after it expired.
    process.env['FIELDOPS_CLIENT_PAGE_TTL_SECONDS'] = '1';
    const shortLived = await startTestPlatform().finally(
      () => delete process.env['FIELDOPS_CLIENT_PAGE_TTL_SECONDS'],
    );
    try {
      const { api: shortApi } = await shortLived.tenant('Short Links Co');
      await newProject(shortApi, await newCustomer(shortApi, 'Brief Ltd'), { name: 'Brief survey' });
      const [page] = items(await shortApi.get('/client-pages?kind=project'));
      const fresh = await fetch(`${shortLived.url}${page?.href ?? ''}`);
      expect(fresh.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 2100));
      const expired = await fetch(`${shortLived.url}${page?.href ?? ''}`);
      expect(expired.status).toBe(404);
      const html = await expired.text();
      expect(html).toContain('expired');
      expect(html).not.toContain('Brief survey');
    } finally {
      await shortLived.stop();
    }
  });

  itInProcess(
    'limits how often pages are opened from one address (the reads allowance), with Retry-After',
    async () => {
      const limited = await startTestPlatform({ FIELDOPS_RATE_READS_PER_MIN: '3' });
      try {
        const { api: limitedApi } = await limited.tenant('Limited Co');
        await newProject(limitedApi, await newCustomer(limitedApi, 'Limited Ltd'), { name: 'Limited job' });
        const [page] = items(await limitedApi.get('/client-pages?kind=project'));
        const statuses: number[] = [];
        let last: Response | undefined;
        for (let i = 0; i < 4; i++) {
          last = await fetch(`${limited.url}${page?.href ?? ''}`);
          statuses.push(last.status);
        }
        expect(statuses).toEqual([200, 200, 200, 429]);
        expect(Number(last?.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(await last?.text()).toContain('wait a minute');
      } finally {
        await limited.stop();
      }
    },
  );

  it('never takes an API token in place of the link', async () => {
    const res = await fetch(`${platform.url}/client/v1/page`, {
      headers: { authorization: 'Bearer anything' },
    });
    expect(res.status).toBe(404);
  });
});
