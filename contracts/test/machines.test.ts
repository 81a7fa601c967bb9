// The machines and the score are data; these tests pin the decisions the spec leaves open.
import {
  CUSTOMER_STAGE_MACHINE,
  CUSTOMER_STAGES,
  EXPORT_STATUS_MACHINE,
  EXPORT_STATUSES,
  LEAD_STATUS_MACHINE,
} from '../src/index.ts';
import { LEAD_STATUSES } from '../src/index.ts';

describe('lead status machine', () => {
  it('declares the legal PATCH moves', () => {
    expect(LEAD_STATUS_MACHINE.next('New')).toEqual(['Contacted', 'Qualified', 'Lost']);
    expect(LEAD_STATUS_MACHINE.next('Contacted')).toEqual(['Qualified', 'Lost']);
    expect(LEAD_STATUS_MACHINE.next('Qualified')).toEqual(['Contacted', 'Lost']);
    expect(LEAD_STATUS_MACHINE.next('Lost')).toEqual(['New']);
    expect(LEAD_STATUS_MACHINE.next('Converted')).toEqual([]);
    expect(LEAD_STATUS_MACHINE.next('Bogus')).toEqual([]);
  });

  it('never lets PATCH reach Converted; conversion is its own operation', () => {
    for (const status of LEAD_STATUSES) expect(LEAD_STATUS_MACHINE.canMove(status, 'Converted')).toBe(false);
    expect(LEAD_STATUS_MACHINE.afterConversion).toBe('Converted');
  });

  it('only open leads are convertible, and open means not Converted or Lost', () => {
    expect(LEAD_STATUSES.filter((status) => LEAD_STATUS_MACHINE.isIn('convertibleFrom', status))).toEqual([
      'New',
      'Contacted',
      'Qualified',
    ]);
    expect(LEAD_STATUSES.filter((status) => LEAD_STATUS_MACHINE.isIn('open', status))).toEqual([
      'New',
      'Contacted',
      'Qualified',
    ]);
  });

  it('every move targets a declared status and no status moves to itself', () => {
    for (const status of LEAD_STATUSES) {
      for (const next of LEAD_STATUS_MACHINE.next(status)) {
        expect(LEAD_STATUSES).toContain(next);
        expect(next).not.toBe(status);
      }
    }
  });
});

describe('customer stage machine', () => {
  it('declares the legal moves, reopening Lost to Lead', () => {
    expect(CUSTOMER_STAGE_MACHINE.next('Lead')).toEqual(['Qualified', 'Proposal', 'Active', 'Lost']);
    expect(CUSTOMER_STAGE_MACHINE.next('Proposal')).toEqual(['Active', 'Qualified', 'Lost']);
    expect(CUSTOMER_STAGE_MACHINE.next('Active')).toEqual(['Lost']);
    expect(CUSTOMER_STAGE_MACHINE.next('Lost')).toEqual(['Lead']);
    expect(CUSTOMER_STAGE_MACHINE.canMove('Active', 'Lead')).toBe(false);
    expect(CUSTOMER_STAGE_MACHINE.initial).toBe('Lead');
  });

  it('every stage can reach every other one through the table', () => {
    for (const from of CUSTOMER_STAGES) {
      const seen = new Set<string>([from]);
      const queue: string[] = [from];
      for (let current = queue.shift(); current !== undefined; current = queue.shift()) {
        for (const next of CUSTOMER_STAGE_MACHINE.next(current)) {
          if (seen.has(next)) continue;
          seen.add(next);
          queue.push(next);
        }
      }
      expect(seen).toEqual(new Set(CUSTOMER_STAGES));
    }
  });
});

describe('final statuses', () => {
  it("are the known statuses no edge leaves, the packager's (notByApi) edges included", () => {
    expect(EXPORT_STATUSES.filter((status) => EXPORT_STATUS_MACHINE.isFinal(status))).toEqual([
      'ready',
      'failed',
    ]);
    expect(LEAD_STATUSES.filter((status) => LEAD_STATUS_MACHINE.isFinal(status))).toEqual(['Converted']);
    expect(EXPORT_STATUS_MACHINE.isFinal('bogus')).toBe(false);
  });
});
