// One total order over stored values, shared by sorting, range filters and cursors so that a page
// boundary compares exactly like the sort that produced it. It follows MongoDB's cross-type order
// (missing/null < numbers < strings < objects < arrays < booleans) so the MongoDB adapter sorts the
// same way; within a type: numeric, UTF-16 code unit (binary) for strings, false < true.

const typeRank = (value: unknown): number => {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number') return 1;
  if (typeof value === 'string') return 2;
  if (Array.isArray(value)) return 4;
  if (typeof value === 'object') return 3;
  if (typeof value === 'boolean') return 5;
  return 6;
};

export function compareValues(a: unknown, b: unknown): number {
  const rankA = typeRank(a);
  const rankB = typeRank(b);
  if (rankA !== rankB) return rankA - rankB;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (rankA === 0) return 0;
  // Objects and arrays are rarely sort keys; a stable structural order is enough.
  const jsonA = JSON.stringify(a);
  const jsonB = JSON.stringify(b);
  return jsonA < jsonB ? -1 : jsonA > jsonB ? 1 : 0;
}

/** Compiles a dot path once into a reader; splitting the path per document dominated page scans. */
export function pathGetter(path: string): (doc: unknown) => unknown {
  const parts = path.split('.');
  if (parts.length === 1) return (doc) => readField(doc, path);
  return (doc) => {
    let current: unknown = doc;
    for (const part of parts) current = readField(current, part);
    return current;
  };
}

/** One step of a dot path: only plain objects have fields (an array or a scalar ends the path). */
function readField(value: unknown, field: string): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  return (value as Record<string, unknown>)[field];
}
