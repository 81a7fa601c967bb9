// The lead score measures how complete the lead's data is, never how good a prospect the person
// is (spec: 0 to 85). Each field present adds its weight; the weights sum to 85:
//   name 15     who to address (always present: it is required, so the floor is 15)
//   email 20    a reply channel that also dedupes and matches customers
//   phone 20    the fastest reply channel for site work
//   message 15  what they want, without it nobody can quote
//   ownerId 10  someone in the business is on it
//   source 5    where it came from; useful, never needed to answer
export const LEAD_SCORE_WEIGHTS = {
  name: 15,
  email: 20,
  phone: 20,
  message: 15,
  ownerId: 10,
  source: 5,
} as const;

export const MAX_LEAD_SCORE = 85;

type ScoredField = keyof typeof LEAD_SCORE_WEIGHTS;
export type ScoredFields = Partial<Record<ScoredField, string | undefined>>;

const present = (value: string | undefined): boolean => (value?.trim() ?? '') !== '';

export function leadScore(lead: ScoredFields): number {
  let score = 0;
  for (const field of Object.keys(LEAD_SCORE_WEIGHTS) as ScoredField[]) {
    if (present(lead[field])) score += LEAD_SCORE_WEIGHTS[field];
  }
  return Math.min(score, MAX_LEAD_SCORE);
}
