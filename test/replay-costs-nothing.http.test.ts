// Repeating a completed write by its key costs nothing (issue 36): the pipeline asks the service
// whether the key's write is completed before it confirms or spends a budget, so a replayed send
// answers the stored result, asks no new confirmation and leaves /me's budgets where they were.
import { describe, expect, it } from '@jest/globals';
import { confirmed, startBillingTenant } from './support/billing.ts';
import type { Body, Client } from './support/harness.ts';

const { api, customerId, side, tenantId } = await startBillingTenant(5, 'Replays Co', {
  name: 'Rae Roofs',
  email: 'rae@roofs.example',
});

const used = async (as: Client, kind: string): Promise<number> =>
  (((await as.get('/me')).body.budgets as Record<string, Body>)[kind]?.used as number) ?? NaN;

const draftProposal = async (): Promise<string> => {
  const reply = await api.post('/proposals', {
    customerId,
    title: 'Roof survey',
    lines: [{ description: 'Flight', quantity: 1, unitPriceCents: 30000 }],
  });
  expect(reply.status).toBe(201);
  return (reply.body.proposal as Body).id as string;
};

describe('a replayed send', () => {
  it('answers the stored send without a confirmation and without spending an email', async () => {
    const id = await draftProposal();
    const key = { 'idempotency-key': `send-${id}` };
    const first = await api.post(`/proposals/${id}/send`, { opId: `send-${id}` });
    expect(first.body.code).toBe('confirmation_required');
    const sent = await api.post(
      `/proposals/${id}/send`,
      { opId: `send-${id}` },
      {
        'x-service-confirm': String(first.body.confirmToken),
      },
    );
    expect(sent.status).toBe(200);
    expect((sent.body.proposal as Body).status).toBe('sent');
    const emailsBefore = await used(api, 'emails');
    expect(emailsBefore).toBeGreaterThanOrEqual(1);

    const again = await api.post(`/proposals/${id}/send`, {}, key);
    expect(again.status).toBe(200);
    expect(again.body.replayed).toBe(true);
    expect(again.body.proposal).toEqual(sent.body.proposal);
    expect(await used(api, 'emails')).toBe(emailsBefore);
    expect(await side.messagesAbout(tenantId, id)).toHaveLength(1);
  });

  it('says in its dry run that it is a replay', async () => {
    const id = await draftProposal();
    const { final } = await confirmed(api, `/proposals/${id}/send`, { opId: `dry-${id}` });
    expect(final.status).toBe(200);
    const dry = await api.post(`/proposals/${id}/send`, { opId: `dry-${id}` }, { 'x-service-dry-run': '1' });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ dryRun: true, applied: false, replayed: true, effects: [] });
    expect(dry.body.willDo).toMatch(/earlier write/);
  });

  it('still confirms and charges a new key, and a changed request under a used key is refused free', async () => {
    const id = await draftProposal();
    const before = await used(api, 'emails');
    const { first, final } = await confirmed(api, `/proposals/${id}/send`, { opId: `new-${id}` });
    expect(first.body.code).toBe('confirmation_required');
    expect(final.status).toBe(200);
    expect(await used(api, 'emails')).toBe(before + 1);
    const changed = await api.post(`/proposals/${id}/send`, { opId: `new-${id}`, message: 'Other' });
    expect(changed.status).toBe(400);
    expect(changed.body.code).toBe('field_invalid');
    expect(await used(api, 'emails')).toBe(before + 1);
  });
});

describe('a replayed export', () => {
  it('answers the same export and spends no second compute run', async () => {
    const first = await api.post('/exports', { opId: 'export-once' });
    expect(first.status).toBeLessThan(300);
    const before = await used(api, 'compute');
    const again = await api.post('/exports', { opId: 'export-once' });
    expect(again.body.replayed).toBe(true);
    expect((again.body.export as Body).id).toBe((first.body.export as Body).id);
    expect(await used(api, 'compute')).toBe(before);
  });
});
