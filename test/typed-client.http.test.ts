// A typed program, as an integrator would write it: openapi-fetch over the types openapi-typescript
// generates from the committed document (support/api.gen.ts, `npm run gen`). It reads what agents
// act on (willDo of a confirmation demand, current of a stale If-Match, effects of a dry run, /me,
// /capabilities) and names the document's schemas, with no cast anywhere: `npm run typecheck`
// covers this file, so its compiling is itself the proof that the document types those answers.
import { describe, expect, it } from '@jest/globals';
import createClient from 'openapi-fetch';
import type { components, paths } from './support/api.gen.ts';
import { suiteTenant } from './support/suite-tenant.ts';

type Lead = components['schemas']['Lead'];
type WillDo = components['schemas']['WillDo'];
type Effect = components['schemas']['Effect'];
type ConflictError = components['schemas']['ConflictError'];
type Me = components['schemas']['Me'];

const { platform, token } = await suiteTenant('Typed Client Co');
const api = createClient<paths>({ baseUrl: platform.url, headers: { authorization: `Bearer ${token}` } });

async function createLead(name: string): Promise<Lead> {
  const { data, error } = await api.POST('/api/v1/leads', { body: { name, email: 'ada@typed.example' } });
  if (!data || !('lead' in data) || !data.lead) throw new Error(`createLead: ${error?.code}`);
  return data.lead;
}

describe('a client typed by the document (openapi-fetch)', () => {
  it('reads willDo of a confirmation demand, then confirms with its token', async () => {
    const customer = await api.POST('/api/v1/customers', {
      body: { name: 'Typed Roofs', email: 'roofs@typed.example' },
    });
    const customerId = customer.data && 'customer' in customer.data ? customer.data.customer?.id : undefined;
    if (!customerId) throw new Error('no customer');
    const deal = await api.POST('/api/v1/deals', { body: { customerId } });
    const dealId = deal.data && 'deal' in deal.data ? deal.data.deal?.id : undefined;
    if (!dealId) throw new Error('no deal');
    const proposal = await api.POST('/api/v1/proposals', {
      body: {
        customerId,
        dealId,
        title: 'Roof survey',
        lines: [{ description: 'Roof survey flight', quantity: 1, unitPriceCents: 45000 }],
      },
    });
    const id = proposal.data && 'proposal' in proposal.data ? proposal.data.proposal?.id : undefined;
    if (!id) throw new Error('no proposal');

    const first = await api.POST('/api/v1/proposals/{id}/send', { params: { path: { id } } });
    expect(first.response.status).toBe(409);
    if (first.error?.code !== 'confirmation_required') throw new Error('no confirmation demand');
    const willDo: WillDo = first.error.willDo;
    expect(willDo.effect).toBe('irreversible');
    expect(willDo.summary).toEqual(expect.any(String));
    expect(willDo.effects.map((effect: Effect) => effect.kind)).toContain('proposal');
    expect(first.error.confirmHeader).toBe('x-service-confirm');

    const done = await api.POST('/api/v1/proposals/{id}/send', {
      params: {
        path: { id },
        header: {
          'x-service-confirm': first.error.confirmToken,
          'X-Agent-Confirmed-By': 'manager@typed.example',
        },
      },
    });
    expect(done.data && 'proposal' in done.data ? done.data.proposal?.status : undefined).toBe('sent');
  });

  it('reads current of a stale If-Match (409 conflict) as a Lead', async () => {
    const lead = await createLead('Stale Lead');
    const fresh = await api.PATCH('/api/v1/leads/{id}', {
      params: { path: { id: lead.id }, header: { 'If-Match': lead.etag } },
      body: { phone: '555-0101' },
    });
    expect(fresh.response.status).toBe(200);
    const stale = await api.PATCH('/api/v1/leads/{id}', {
      params: { path: { id: lead.id }, header: { 'If-Match': lead.etag } },
      body: { phone: '555-0102' },
    });
    expect(stale.response.status).toBe(409);
    if (stale.error?.code !== 'conflict') throw new Error('no conflict');
    const conflict: ConflictError = stale.error;
    const current: Lead | undefined = stale.error.current;
    expect(conflict.retryable).toBe(true); // re-read, then retry with the new etag
    expect(current?.phone).toBe('555-0101');
    expect(current?.etag).not.toBe(lead.etag);
  });

  it('reads effects of a dry run, and the would-be lead', async () => {
    const { data } = await api.POST('/api/v1/leads', {
      params: { header: { 'x-service-dry-run': '1' } },
      body: { name: 'Rehearsed Typed Lead' },
    });
    if (!data || !('effects' in data)) throw new Error('no dry run');
    expect([data.dryRun, data.applied]).toEqual([true, false]);
    const effects: Effect[] = data.effects;
    expect(effects[0]).toMatchObject({ action: 'create', kind: 'lead' });
    expect(data.willDo).toEqual(expect.any(String));
    const wouldBe: Lead | undefined = data.lead;
    expect(wouldBe?.name).toBe('Rehearsed Typed Lead');
  });

  it('reads /me and /capabilities', async () => {
    const me = await api.GET('/api/v1/me');
    if (!me.data) throw new Error(`no /me: ${me.error?.code}`);
    const answer: Me = me.data;
    expect(answer.tenant.name).toBe('Typed Client Co');
    expect(answer.permissions.lead).toEqual(expect.arrayContaining(['read', 'create']));
    expect(answer.limits.requestsPerMinute.writes).toBeGreaterThan(0);

    const capabilities = await api.GET('/api/v1/capabilities');
    if (!capabilities.data) throw new Error(`no /capabilities: ${capabilities.error?.code}`);
    const send = capabilities.data.endpoints.find((endpoint) => endpoint.operationId === 'sendProposal');
    expect(send).toMatchObject({ allowed: true, confirmation: 'irreversible', bucket: 'writes' });
  });
});
