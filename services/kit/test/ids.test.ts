// Ids minted by one process sort in the order they were minted (the tie-breaker of every sort).
import { describe, expect, it } from '@jest/globals';
import { newId } from '../src/ids.ts';

describe('newId', () => {
  it('sorts in minting order, also within one millisecond', () => {
    const ids = Array.from({ length: 2000 }, () => newId('act'));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keeps the prefix, a 9-character time and a 12-character random part', () => {
    expect(newId('lead')).toMatch(/^lead_[0-9a-z]{21}$/);
  });
});
