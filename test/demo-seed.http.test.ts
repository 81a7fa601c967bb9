// The demo tenant's content, seeded through the public API exactly as `npm start` does on a first
// start (here into a fresh tenant of a test platform with generous limits, so it takes seconds):
// every list answers something, leads cover every status, deals span the pipeline, the proposal
// is sent, the invoice a draft, the stockpile is measured, and every write is in the audit trail.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { demoApi, seedDemoTenant } from '@fieldops/platform/demo-seed';
import {
  eventually,
  startTestPlatform,
  type ApiRequestPath,
  type Body,
  type Client,
  type TestPlatform,
} from './support/harness.js';

let platform: TestPlatform;
let api: Client;
let projectId: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  const tenant = await platform.tenant('Seeded Co');
  api = tenant.api;
  ({ projectId } = await seedDemoTenant(demoApi(platform.url, tenant.token)));
}, 90_000);
afterAll(() => platform.stop());

const list = async (path: ApiRequestPath) => {
  const reply = await api.get(path);
  if (!Array.isArray(reply.body.items)) throw new Error(`${path}: ${JSON.stringify(reply.body)}`);
  return reply.body.items as Body[];
};

describe('demo seed', () => {
  it('fills every list with something to look at', async () => {
    const statuses = (await list('/leads')).map((lead) => lead['status']).sort();
    expect(statuses).toEqual(['Contacted', 'Converted', 'Lost', 'New', 'Qualified']);
    expect((await list('/customers')).length).toBeGreaterThanOrEqual(3);
    const stages = new Set((await list('/deals')).map((deal) => deal['stage']));
    expect([...stages]).toEqual(expect.arrayContaining(['lead', 'proposal_sent', 'won', 'scheduled']));
    expect((await list('/proposals')).map((p) => p['status'])).toEqual(['sent']);
    expect((await list('/invoices')).map((i) => i['status'])).toEqual(['draft']);
    expect((await list(`/projects/${projectId}/records?kind=rfi`)).length).toBe(1);
    expect((await list(`/projects/${projectId}/records?kind=incident`)).length).toBe(1);
    expect((await list('/bookings')).length).toBe(1);
    expect((await list('/client-pages?kind=project')).length).toBe(1);
  });

  it('measured the stockpile capture: quantities with bands', async () => {
    const reply = await api.get(`/projects/${projectId}/quantities`);
    expect(reply.status).toBe(200);
    expect(JSON.stringify(reply.body)).toContain('"bands"');
  });

  it('wrote everything through the API: audited under the seed run id', async () => {
    const entries = await eventually(async () => {
      const found = await list('/audit?runId=demo-seed&limit=100');
      return found.some((entry) => entry['action'] === 'invoice.created') ? found : undefined;
    });
    expect(entries.length).toBeGreaterThan(20);
  });
});
