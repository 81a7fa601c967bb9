// A stable hash of "the request as sent", so a replay with the same idempotency key can be told
// apart from a different request that reuses the key. Keys are sorted and undefined members
// dropped, because two encodings of the same request (field order, an absent optional field
// decoded as undefined) must hash the same.
import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every depth and undefined members left out. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortDeep(value)) ?? 'null';
}

function sortDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : sortDeep(item)));
  if (value === null || typeof value !== 'object') return value;
  // Dates and other values that define their own JSON form hash by that form.
  const toJson = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJson === 'function') return sortDeep(toJson.call(value));
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const member = (value as Record<string, unknown>)[key];
    if (member !== undefined) sorted[key] = sortDeep(member);
  }
  return sorted;
}

/** sha256 of the canonical JSON, hex. */
export const fingerprintHash = (value: unknown): string =>
  createHash('sha256').update(canonicalJson(value)).digest('hex');
