// Registry-driven: every write operation of the OpenAPI document (itself generated from the
// registry) is performed once, with its own request id and agent headers, and the audit trail
// must then hold its entries exactly once each, against the calling token, with those headers.
// A write added to the registry without a recipe here fails the coverage test.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  eventually,
  startTestPlatform,
  type Body,
  type Client,
  type Reply,
  type TestPlatform,
} from './support/harness.ts';
import { SITE_PILES, siteCloudPly, toeAround } from '@fieldops/survey-fixtures/site';
import { finalizedPointCapture, pointFrame, presign, put } from './support/capture.ts';

let platform: TestPlatform;
let api: Client;
let tokenId: string;

beforeAll(async () => {
  platform = await startTestPlatform({ FIELDOPS_WEBHOOK_ALLOW_PRIVATE: '1' });
  const { tenantId } = await platform.tenant('Every Write Co');
  const added = await platform.admin.post(`/tenants/${tenantId}/members`, {
    name: 'Every Manager',
    email: 'manager@every.test',
    role: 'Manager',
  });
  const memberId = (added.body.member as { id: string }).id;
  // Bound to a member, so the member-bound writes (tasks, saved reports) can be performed too.
  const manager = await platform.token(tenantId, { role: 'Manager', memberId });
  ({ api } = manager);
  tokenId = manager.id;
});
afterAll(() => platform.stop());

const doc = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '..', 'gateway', 'openapi', 'openapi.json'), 'utf8'),
) as { paths: Record<string, Record<string, { operationId: string }>> };
const WRITES = Object.values(doc.paths).flatMap((operations) =>
  Object.entries(operations)
    .filter(([method]) => method !== 'get')
    .map(([, operation]) => operation.operationId),
);

/** The state the recipes build on, filled as they run. */
const s: Record<string, string> = {};
const idOf = (reply: Reply<Body>, member: string): string => {
  if (reply.status >= 300) throw new Error(`${member}: ${JSON.stringify(reply.body)}`);
  return (reply.body[member] as Body).id as string;
};
const ifMatch = { 'if-match': '*' };
const HOUR = 3_600_000;
/** Whole hours some days ahead, so the bookings fall in the future. */
const hoursAhead = (hours: number): string =>
  new Date(Math.ceil((Date.now() + 3 * 24 * HOUR) / HOUR) * HOUR + hours * HOUR).toISOString();
const LINES = [{ description: 'Roof survey flight', quantity: 1, unitPriceCents: 45000 }];

/** A write behind two-phase confirmation: the demand, then the same request with its token. */
async function confirmedPost(post: Send, path: string, body: Body = {}): Promise<Reply<Body>> {
  const first = await post(path, body);
  if (first.status !== 409) return first;
  return post(path, body, { [String(first.body.confirmHeader)]: String(first.body.confirmToken) });
}

type Send = (path: string, body?: unknown, headers?: Record<string, string>) => Promise<Reply<Body>>;
type Recipe = (post: Send, patch: Send, del: Send, putJson: Send) => Promise<Reply<Body>>;

/** A project whose capture (the generated two-pile site) is processed and measured. */
async function measuredSite(): Promise<string> {
  const projectId = idOf(
    await api.post('/projects', { customerId: s.customer, customerName: 'Site' }),
    'project',
  );
  await finalizedPointCapture(api, projectId, siteCloudPly());
  await eventually(async () => {
    const q = (await api.get(`/projects/${projectId}/quantities`)).body.quantities as Body;
    return q.measured ? q : undefined;
  }, 30_000);
  return projectId;
}

const RECIPES: [string, Recipe][] = [
  [
    'createCustomer',
    async (post) => {
      const r = await post('/customers', { name: 'Every Customer', email: 'every@customer.test' });
      s.customer = idOf(r, 'customer');
      return r;
    },
  ],
  ['updateCustomer', (_p, patch) => patch(`/customers/${s.customer}`, { phone: '+1 555 0100' }, ifMatch)],
  [
    'createLead',
    async (post) => {
      const r = await post('/leads', { name: 'Every Lead', message: 'Need a survey' });
      s.lead = idOf(r, 'lead');
      return r;
    },
  ],
  ['updateLead', (_p, patch) => patch(`/leads/${s.lead}`, { message: 'Need a roof survey' }, ifMatch)],
  ['qualifyLead', (post) => post(`/leads/${s.lead}/qualify`)],
  ['convertLead', (post) => post(`/leads/${s.lead}/convert`)],
  [
    'createDeal',
    async (post) => {
      const r = await post('/deals', { customerId: s.customer });
      s.deal = idOf(r, 'deal');
      return r;
    },
  ],
  ['advanceDeal', (post) => post(`/deals/${s.deal}/advance`, { trigger: 'send_proposal' })],
  ['loseDeal', (post) => post(`/deals/${s.deal}/lose`, { reason: 'Went with another pilot' })],
  [
    'createProject',
    async (post) => {
      const r = await post('/projects', { customerId: s.customer, customerName: 'Every Customer' });
      s.project = idOf(r, 'project');
      return r;
    },
  ],
  [
    'updateProject',
    (_p, patch) => patch(`/projects/${s.project}`, { accessNotes: 'Gate code 1234' }, ifMatch),
  ],
  ['fireProjectLifecycle', (post) => post(`/projects/${s.project}/lifecycle`, { trigger: 'hold' })],
  [
    'createProjectRecord',
    async (post) => {
      const r = await post(`/projects/${s.project}/records`, { kind: 'punch', title: 'Loose flashing' });
      s.record = idOf(r, 'record');
      return r;
    },
  ],
  [
    'updateProjectRecord',
    (_p, patch) =>
      patch(
        `/projects/${s.project}/records/${s.record}`,
        { kind: 'punch', title: 'Loose flashing, east' },
        ifMatch,
      ),
  ],
  [
    'voidProjectRecord',
    (post) => post(`/projects/${s.project}/records/${s.record}/void`, { kind: 'punch' }, ifMatch),
  ],
  [
    'unvoidProjectRecord',
    (post) => post(`/projects/${s.project}/records/${s.record}/unvoid`, { kind: 'punch' }, ifMatch),
  ],
  ['setProjectPermit', (post) => post(`/projects/${s.project}/permit`, { ahj: 'City of Phoenix' })],
  [
    'setPlanningSettings',
    (post) => post('/settings/planning', { permitDefaults: { contractorLicense: 'ROC-123456' } }),
  ],
  [
    'presignCapture',
    async (post) => {
      const r = await post(`/projects/${s.project}/capture/presign`, { frames: [pointFrame(10)] });
      s.session = idOf(r, 'session');
      return r;
    },
  ],
  ['abortCapture', (post) => post(`/projects/${s.project}/capture/${s.session}/abort`)],
  [
    'createDesign',
    async (post) => {
      const r = await post(`/projects/${s.project}/designs`, { name: 'Survey grid', kind: 'survey' });
      s.design = idOf(r, 'design');
      return r;
    },
  ],
  [
    'createWebhook',
    async (post) => {
      const r = await post('/webhooks', { url: 'http://127.0.0.1:9/hooks', eventTypes: ['lead.created'] });
      s.webhook = idOf(r, 'webhook');
      return r;
    },
  ],
  [
    'updateWebhook',
    (_p, patch) => patch(`/webhooks/${s.webhook}`, { eventTypes: ['lead.created', 'scene.ready'] }, ifMatch),
  ],
  ['rotateWebhookSecret', (post) => post(`/webhooks/${s.webhook}/rotate-secret`)],
  ['deleteWebhook', (_p, _patch, del) => del(`/webhooks/${s.webhook}`)],
  ['createExport', (post) => post('/exports', {})],
  [
    'createProposal',
    async (post) => {
      const r = await post('/proposals', { customerId: s.customer, title: 'Roof survey', lines: LINES });
      s.proposal = idOf(r, 'proposal');
      return r;
    },
  ],
  [
    'updateProposal',
    (_p, patch) => patch(`/proposals/${s.proposal}`, { title: 'Roof survey, east' }, ifMatch),
  ],
  ['sendProposal', (post) => confirmedPost(post, `/proposals/${s.proposal}/send`)],
  ['withdrawProposal', (post) => post(`/proposals/${s.proposal}/withdraw`, {})],
  [
    'createInvoice',
    async (post) => {
      const r = await post('/invoices', { customerId: s.customer, title: 'Survey', lines: LINES });
      s.invoice = idOf(r, 'invoice');
      return r;
    },
  ],
  ['updateInvoice', (_p, patch) => patch(`/invoices/${s.invoice}`, { title: 'Survey, east' }, ifMatch)],
  ['issueInvoice', (post) => confirmedPost(post, `/invoices/${s.invoice}/issue`)],
  ['voidInvoice', (post) => post(`/invoices/${s.invoice}/void`, { reason: 'Wrong customer' })],
  [
    'createBooking',
    async (post) => {
      const slot = { start: hoursAhead(0), end: hoursAhead(2) };
      const r = await post('/bookings', { customerId: s.customer, ...slot, resourceId: 'crew-north' });
      s.booking = idOf(r, 'booking');
      const other = { start: hoursAhead(4), end: hoursAhead(5), resourceId: 'crew-north' };
      s.declined = idOf(await api.post('/bookings', { customerId: s.customer, ...other }), 'booking');
      return r;
    },
  ],
  ['confirmBooking', (post) => confirmedPost(post, `/bookings/${s.booking}/confirm`)],
  ['declineBooking', (post) => post(`/bookings/${s.declined}/decline`, { reason: 'No crew is free.' })],
  ['createTask', (post) => post('/tasks', { title: 'Call the client' })],
  [
    'saveReport',
    (post) =>
      post('/reports', {
        name: 'New leads',
        figures: [{ label: 'New leads', resource: 'leads', measure: 'count', filter: { status: 'New' } }],
      }),
  ],
  [
    'finalizeCapture',
    async (post) => {
      const bytes = 'ply\nformat ascii 1.0\nend_header\n';
      const { session, uploads } = await presign(api, s.project as string, {
        frames: [pointFrame(bytes.length)],
      });
      await put(uploads[0] as Parameters<typeof put>[0], bytes);
      return post(`/projects/${s.project}/capture/${session.id}/finalize`);
    },
  ],
  [
    'processProject',
    // A run still in flight answers 409 and applies nothing; the finalized capture's run settles.
    (post) =>
      eventually(async () => {
        const r = await post(`/projects/${s.project}/process`);
        return r.status === 409 ? undefined : r;
      }),
  ],
  [
    'stateProjectRegions',
    async (_p, _patch, _d, putJson) => {
      s.site = await measuredSite();
      const north = {
        id: 'north',
        name: 'North',
        polygon: toeAround(SITE_PILES.north),
        base: 'fitted-plane',
      };
      return putJson(`/projects/${s.site}/regions`, { regions: [north] }, ifMatch);
    },
  ],
  ['remeasureProjectQuantities', (post) => post(`/projects/${s.site}/quantities/remeasure`)],
  [
    'retryWebhookDelivery',
    async (post) => {
      const hook = await api.post('/webhooks', {
        url: 'http://127.0.0.1:9/retry',
        eventTypes: ['lead.created'],
      });
      const hookId = idOf(hook, 'webhook');
      await api.post('/leads', { name: 'Delivered Lead' });
      const [delivery] = await eventually(async () => {
        const found = (await api.get(`/webhooks/${hookId}/deliveries`)).body.items as Body[];
        return found.length ? found : undefined;
      });
      return post(`/webhooks/${hookId}/deliveries/${delivery?.id as string}/retry`);
    },
  ],
  ['sealDesign', (post) => confirmedPost(post, `/projects/${s.project}/designs/${s.design}/seal`)],
];

type Entry = Body & { operation: string; requestId: string; tokenId: string; agent: Body; id: string };

describe('every write reaches the audit trail exactly once', () => {
  it('has a recipe for every write operation of the registry, and one each', () => {
    const covered = new Set(RECIPES.map(([operationId]) => operationId));
    expect(covered.size).toBe(RECIPES.length);
    expect(WRITES.filter((operationId) => !covered.has(operationId))).toEqual([]);
    expect([...covered].filter((operationId) => !WRITES.includes(operationId))).toEqual([]);
  });

  it('records each applied write against its token with its request id and agent headers', async () => {
    for (const [operationId, recipe] of RECIPES) {
      const headers = {
        'x-request-id': `req-${operationId}`,
        'x-agent-run-id': `run-${operationId}`,
        'x-agent-task': `task ${operationId}`,
        'x-agent-model': 'model-every',
      };
      const send =
        (method: string): Send =>
        (path, body, extra = {}) =>
          api.request(method, path as never, { body, headers: { ...headers, ...extra } });
      const reply = await recipe(send('POST'), send('PATCH'), send('DELETE'), send('PUT'));
      expect({ operationId, status: reply.status, body: reply.status < 300 ? 'ok' : reply.body }).toEqual({
        operationId,
        status: reply.status,
        body: 'ok',
      });
    }
    for (const [operationId] of RECIPES) {
      const entries = await eventually(async () => {
        const found = (await api.get(`/audit?runId=run-${operationId}&limit=100`)).body.items as Entry[];
        return found.length ? found : undefined;
      });
      expect({
        operationId,
        count: new Set(entries.map((e) => `${e.action as string} ${e.resourceId as string}`)).size,
      }).toEqual({
        operationId,
        count: entries.length,
      });
      for (const entry of entries) {
        expect(entry).toMatchObject({
          operation: operationId,
          requestId: `req-${operationId}`,
          tokenId,
          agent: { runId: `run-${operationId}`, task: `task ${operationId}`, model: 'model-every' },
        });
      }
    }
  }, 120_000);
});
