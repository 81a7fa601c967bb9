// The rules both stores share: turns across tenants, and where a tenant's counter starts.
import { counterFloor, roundRobin } from '../src/store/fair-turns.ts';
import type { OutboxRecord } from '../src/store/port.ts';

const records = (tenantId: string, count: number): OutboxRecord[] =>
  Array.from({ length: count }, (_, index) => ({
    id: `${tenantId}.${index + 1}`,
    tenantId,
    topic: 't',
    key: tenantId,
    value: null,
    seq: index + 1,
  }));

const queue = (tenantId: string, count: number) => ({ tenantId, records: records(tenantId, count).values() });

describe('roundRobin', () => {
  it("takes one of each tenant per round, each tenant's in seq order, up to the limit", () => {
    const taken = roundRobin([queue('a', 5), queue('b', 1), queue('c', 2)], 6);
    expect(taken.map((record) => record.id)).toEqual(['a.1', 'b.1', 'c.1', 'a.2', 'c.2', 'a.3']);
  });

  it('stops when every queue is empty, and takes nothing for a limit of 0', () => {
    expect(roundRobin([queue('a', 1), queue('b', 0)], 10).map((record) => record.id)).toEqual(['a.1']);
    expect(roundRobin([queue('a', 3)], 0)).toEqual([]);
  });
});

describe('counterFloor', () => {
  it('raises a counter to the highest stored seq and never lowers it', () => {
    expect(counterFloor(0, 41)).toBe(41);
    expect(counterFloor(50, 41)).toBe(50);
    expect(counterFloor(7, undefined)).toBe(7);
  });
});
