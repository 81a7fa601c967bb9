// The spec's confirmation token "expires in 10 minutes": a re-send with a token older than that
// is not performed; it answers 409 confirmation_required again with a fresh token, and nothing
// changes until the fresh one comes back. The platform runs in this process, so the test moves
// the system clock (only Date; timers and I/O stay real).
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { startTestPlatform, type Body, type Client, type TestPlatform } from './support/harness.ts';

let platform: TestPlatform;
let api: Client;

beforeAll(async () => {
  platform = await startTestPlatform();
  ({ api } = await platform.tenant('Expiry Co'));
});
afterAll(async () => {
  jest.useRealTimers();
  await platform.stop();
});

const TEN_MINUTES_MS = 10 * 60_000;

async function draftProposal(): Promise<string> {
  const customer = await api.post('/customers', { name: 'Clock Quarry', email: 'buyer@clock.test' });
  const customerId = (customer.body.customer as Body).id;
  const lines = [{ description: 'Volumetrics', quantity: 1, unitPriceCents: 50000 }];
  const draft = await api.post('/proposals', { customerId, title: 'Offer', lines });
  expect(draft.status).toBe(201);
  return (draft.body.proposal as Body).id as string;
}

describe('an expired confirmation token', () => {
  it('is refused with a fresh token, and the operation waits for the fresh one', async () => {
    const id = await draftProposal();
    const first = await api.post(`/proposals/${id}/send`, {});
    expect(first.status).toBe(409);
    expect(first.body.code).toBe('confirmation_required');
    const header = String(first.body.confirmHeader);

    jest.useFakeTimers({
      doNotFake: ['nextTick', 'setImmediate', 'setTimeout', 'setInterval', 'queueMicrotask'],
    });
    jest.setSystemTime(Date.now() + TEN_MINUTES_MS + 1_000);

    const late = await api.post(`/proposals/${id}/send`, {}, { [header]: String(first.body.confirmToken) });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('confirmation_required');
    expect(late.body.confirmToken).not.toBe(first.body.confirmToken);
    expect(((await api.get(`/proposals/${id}`)).body.proposal as Body).status).toBe('draft');

    const inTime = await api.post(`/proposals/${id}/send`, {}, { [header]: String(late.body.confirmToken) });
    expect(inTime.status).toBe(200);
    expect((inTime.body.proposal as Body).status).toBe('sent');
  });
});
