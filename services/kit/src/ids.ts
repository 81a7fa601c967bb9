// Ids for every stored record. Stores break ties of a sort by id, so ids minted by one process
// sort in the order they were minted, even within one millisecond: that is what makes "newest
// first" lists (activity trails, pages sorted by createdAt) deterministic.
import { randomBytes } from 'node:crypto';

const RANDOM_CHARS = 12;
const RANDOM_SPACE = 36n ** BigInt(RANDOM_CHARS);

let last = { time: -1, random: 0n };

function freshRandom(): bigint {
  let value = 0n;
  // Start in the lower half of the space so increments within a millisecond never overflow it.
  for (const byte of randomBytes(RANDOM_CHARS - 1)) value = value * 36n + BigInt(byte % 36);
  return value;
}

/** The next (time, random) pair: later than the previous one, incrementing within a millisecond. */
function nextPosition(): { time: number; random: bigint } {
  const now = Date.now();
  if (now > last.time) last = { time: now, random: freshRandom() };
  else last = { time: last.time, random: (last.random + 1n) % RANDOM_SPACE };
  return last;
}

/**
 * Opaque ids prefixed by kind (`lead_…`). The first 9 characters are the time in base36, the
 * rest random, incremented for each id minted in the same millisecond, so ids sort by creation.
 */
export function newId(prefix: string): string {
  const { time, random } = nextPosition();
  return `${prefix}_${time.toString(36).padStart(9, '0')}${random.toString(36).padStart(RANDOM_CHARS, '0')}`;
}

export const nowIso = (): string => new Date().toISOString();
