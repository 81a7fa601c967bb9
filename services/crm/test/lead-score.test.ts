// The lead score is data: these tests pin the weights the spec leaves open.
import { LEAD_SCORE_WEIGHTS, leadScore, MAX_LEAD_SCORE } from '../src/leads/lead-score.ts';

describe('lead score', () => {
  it('weights sum to the spec maximum of 85', () => {
    expect(Object.values(LEAD_SCORE_WEIGHTS).reduce((sum, weight) => sum + weight, 0)).toBe(MAX_LEAD_SCORE);
    expect(MAX_LEAD_SCORE).toBe(85);
  });

  it('stays within 0..85 and counts only fields present', () => {
    expect(leadScore({})).toBe(0);
    expect(leadScore({ name: 'A' })).toBe(15);
    expect(leadScore({ name: 'A', email: ' ', phone: '' })).toBe(15);
    expect(leadScore({ name: 'A', email: 'a@b', phone: '1', message: 'm', source: 's', ownerId: 'o' })).toBe(
      85,
    );
  });
});
