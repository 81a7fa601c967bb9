// Delivery slots shared between tenants (fair-slots.ts): a tenant never holds more than its share,
// and free slots go round-robin across tenants, each tenant's oldest due entry first.
import { describe, expect, it } from '@jest/globals';
import { busyByTenant, pickFairly, saturatedTenants } from '../src/dispatch/fair-slots.ts';
import type { QueueEntry } from '../src/deliveries/dispatch-queue.ts';

const entry = (id: string, tenant: string): QueueEntry => ({
  id,
  tenantId: '_platform',
  version: 1,
  deliveryTenantId: tenant,
  dueAt: '2026-01-01T00:00:00.000Z',
});
const limits = { concurrency: 4, tenantConcurrency: 2 };

describe('pickFairly', () => {
  it('takes one per tenant per round, so a tenant with a long queue does not take every slot', () => {
    const due = ['a1', 'a2', 'a3', 'a4', 'a5', 'b1', 'c1'].map((id) => entry(id, id.slice(0, 1)));
    const picked = pickFairly(due, new Map(), limits).map((e) => e.id);
    expect(picked).toEqual(['a1', 'b1', 'c1', 'a2']);
  });

  it("counts the attempts in progress against the tenant's share and the free slots", () => {
    const due = [entry('a3', 'a'), entry('b1', 'b'), entry('b2', 'b'), entry('b3', 'b')];
    const busy = busyByTenant(['a', 'a', 'c']);
    expect(saturatedTenants(busy, limits)).toEqual(['a']);
    expect(pickFairly(due, busy, limits).map((e) => e.id)).toEqual(['b1']);
  });

  it('starts nothing when every slot is taken', () => {
    expect(pickFairly([entry('b1', 'b')], busyByTenant(['a', 'a', 'c', 'c']), limits)).toEqual([]);
  });
});
