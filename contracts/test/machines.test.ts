// The machines and the score are data; these tests pin the decisions the spec leaves open.
import { canMoveStage, CUSTOMER_STAGE_MACHINE, CUSTOMER_STAGES, nextStages } from '../src/index.js';
import {
  canMove,
  convertible,
  isOpenStatus,
  LEAD_STATUS_MACHINE,
  LEAD_STATUSES,
  nextStatuses,
} from '../src/index.js';

describe('lead status machine', () => {
  it('declares the legal PATCH moves', () => {
    expect(nextStatuses('New')).toEqual(['Contacted', 'Qualified', 'Lost']);
    expect(nextStatuses('Contacted')).toEqual(['Qualified', 'Lost']);
    expect(nextStatuses('Qualified')).toEqual(['Contacted', 'Lost']);
    expect(nextStatuses('Lost')).toEqual(['New']);
    expect(nextStatuses('Converted')).toEqual([]);
    expect(nextStatuses('Bogus')).toEqual([]);
  });

  it('never lets PATCH reach Converted; conversion is its own operation', () => {
    for (const status of LEAD_STATUSES) expect(canMove(status, 'Converted')).toBe(false);
    expect(LEAD_STATUS_MACHINE.afterConversion).toBe('Converted');
  });

  it('only open leads are convertible, and open means not Converted or Lost', () => {
    expect(LEAD_STATUSES.filter(convertible)).toEqual(['New', 'Contacted', 'Qualified']);
    expect(LEAD_STATUSES.filter(isOpenStatus)).toEqual(['New', 'Contacted', 'Qualified']);
  });

  it('every move targets a declared status and no status moves to itself', () => {
    for (const status of LEAD_STATUSES) {
      for (const next of nextStatuses(status)) {
        expect(LEAD_STATUSES).toContain(next);
        expect(next).not.toBe(status);
      }
    }
  });
});

describe('customer stage machine', () => {
  it('declares the legal moves, reopening Lost to Lead', () => {
    expect(nextStages('Lead')).toEqual(['Qualified', 'Proposal', 'Active', 'Lost']);
    expect(nextStages('Proposal')).toEqual(['Active', 'Qualified', 'Lost']);
    expect(nextStages('Active')).toEqual(['Lost']);
    expect(nextStages('Lost')).toEqual(['Lead']);
    expect(canMoveStage('Active', 'Lead')).toBe(false);
    expect(CUSTOMER_STAGE_MACHINE.initial).toBe('Lead');
  });

  it('every stage can reach every other one through the table', () => {
    for (const from of CUSTOMER_STAGES) {
      const seen = new Set<string>([from]);
      const queue: string[] = [from];
      for (let current = queue.shift(); current !== undefined; current = queue.shift()) {
        for (const next of nextStages(current)) {
          if (seen.has(next)) continue;
          seen.add(next);
          queue.push(next);
        }
      }
      expect(seen).toEqual(new Set(CUSTOMER_STAGES));
    }
  });
});
