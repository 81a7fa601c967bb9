// Permit metadata: the override merged over the defaults, sparse entries, unknown keys dropped.
import { describe, expect, it } from '@jest/globals';
import { splitPermitInput } from '@fieldops/contracts';
import { applyEntries, mergePermit } from '../src/permits/permit-merge.ts';

describe('permit metadata', () => {
  it('merges the override over the defaults key by key, naming each value’s source', () => {
    const merged = mergePermit({ operatorId: 'OP-1', insurer: 'A' }, { insurer: 'B', ahj: 'City' });
    expect(merged.metadata).toEqual({ operatorId: 'OP-1', insurer: 'B', ahj: 'City' });
    expect(merged.values).toEqual([
      { key: 'ahj', value: 'City', source: 'project' },
      { key: 'insurer', value: 'B', source: 'project' },
      { key: 'operatorId', value: 'OP-1', source: 'tenant' },
    ]);
  });

  it('applies sparse entries without touching the others; null removes a key', () => {
    const before = { insurer: 'A', ahj: 'City' };
    expect(applyEntries(before, [{ key: 'insurer' }, { key: 'utility', value: 'APS' }])).toEqual({
      ahj: 'City',
      utility: 'APS',
    });
    expect(before).toEqual({ insurer: 'A', ahj: 'City' });
  });

  it('drops unknown keys and reports known keys with a bad value', () => {
    const input = splitPermitInput({ ahj: ' City ', colour: 'blue', insurer: 7, utility: null, notes: '' });
    expect(input.entries).toEqual([
      { key: 'ahj', value: 'City' },
      { key: 'utility', value: null },
      { key: 'notes', value: null },
    ]);
    expect(input.dropped).toEqual(['colour']);
    expect(input.problems).toEqual(['insurer must be text or null (null clears it)']);
  });
});
