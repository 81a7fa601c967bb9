// Page cursors: the (sort value, id) of the last item of a page, plus the sort they belong to so
// a cursor replayed against a different sort is refused instead of silently skipping items.
// Encoded as base64url JSON; opaque to clients, stable across restarts and adapters.
//
// A cursor comes back from the client, so it is decoded strictly (docs/decisions.md, "Page
// cursors: strictly typed"; on the API the gateway also seals it with an HMAC first,
// gateway/src/pipeline/cursor-seal.ts): base64url of at most MAX_CURSOR_LENGTH characters, a JSON
// object with exactly the four members, each of its primitive type, and a sort value that is a
// string, a finite number or null, the only values a sort field holds. Nothing else is accepted,
// so no object or array (a MongoDB operator such as {"$gt": ""}) can reach a query.
import type { Sort } from './port.ts';

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

/**
 * A page whose last document holds something other than a string, a number or null in the sort
 * field (an array, an object, a boolean): the stores order such values apart (MongoDB sorts an
 * array by its least or greatest element), so neither issues a cursor after one.
 */
export class UnsortableValue extends Error {
  constructor(sort: Sort, id: string) {
    super(
      `document ${id} holds a value in the sort field ${sort.field} that a page cannot continue after; ` +
        'sort by a field holding a string, a number or null',
    );
    this.name = 'UnsortableValue';
  }
}

export function encodeCursor(sort: Sort, position: CursorPosition): string {
  if (!isSortValue(position.value ?? null)) throw new UnsortableValue(sort, position.id);
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

/** Far above any cursor this API issues (sort values are short strings and numbers). */
export const MAX_CURSOR_LENGTH = 2048;
const MAX_ID_LENGTH = 200;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const KEYS = ['d', 'f', 'i', 'v'];

function parseBody(cursor: string): CursorBody {
  if (cursor.length > MAX_CURSOR_LENGTH || !BASE64URL.test(cursor)) {
    throw new InvalidCursor('not a cursor issued by this API');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursor('not a cursor issued by this API');
  }
  if (!isCursorBody(parsed)) throw new InvalidCursor('not a cursor issued by this API');
  return parsed;
}

const isSortValue = (value: unknown): value is string | number | null =>
  value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

function isCursorBody(value: unknown): value is CursorBody {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const body = value as Record<string, unknown>;
  const keys = Object.keys(body).sort();
  return (
    keys.length === KEYS.length &&
    keys.every((key, n) => key === KEYS[n]) &&
    typeof body.f === 'string' &&
    (body.d === 'asc' || body.d === 'desc') &&
    isSortValue(body.v) &&
    typeof body.i === 'string' &&
    body.i.length > 0 &&
    body.i.length <= MAX_ID_LENGTH
  );
}
