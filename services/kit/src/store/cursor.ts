// Page cursors: the (sort value, id) of the last item of a page, plus the sort they belong to so
// a cursor replayed against a different sort is refused instead of silently skipping items.
// Encoded as base64url JSON; opaque to clients, stable across restarts and adapters.
import type { Sort } from './port.js';

export interface CursorPosition {
  value: unknown;
  id: string;
}

interface CursorBody {
  f: string;
  d: Sort['direction'];
  v: unknown;
  i: string;
}

/** A cursor that is malformed or was issued for another sort; the caller maps it to a 400. */
export class InvalidCursor extends Error {
  constructor(detail: string) {
    super(`invalid cursor: ${detail}`);
    this.name = 'InvalidCursor';
  }
}

export function encodeCursor(sort: Sort, position: CursorPosition): string {
  // A missing sort value is stored as null: both sort first and compare equal.
  const body: CursorBody = { f: sort.field, d: sort.direction, v: position.value ?? null, i: position.id };
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

export function decodeCursor(sort: Sort, cursor: string): CursorPosition {
  const body = parseBody(cursor);
  if (body.f !== sort.field || body.d !== sort.direction) {
    throw new InvalidCursor('it was issued for a different sort');
  }
  return { value: body.v, id: body.i };
}

function parseBody(cursor: string): CursorBody {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursor('not a cursor issued by this API');
  }
  if (!isCursorBody(parsed)) throw new InvalidCursor('not a cursor issued by this API');
  return parsed;
}

function isCursorBody(value: unknown): value is CursorBody {
  if (value === null || typeof value !== 'object') return false;
  const body = value as Record<string, unknown>;
  return (
    typeof body.f === 'string' &&
    (body.d === 'asc' || body.d === 'desc') &&
    'v' in body &&
    typeof body.i === 'string'
  );
}
