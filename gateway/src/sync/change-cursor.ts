// The change feed's cursor: the tenant and the sequence number of the last change a page held,
// base64url-encoded. Opaque to clients; the tenant inside lets a cursor from another tenant be
// refused instead of silently paging someone else's positions.
import { AppError } from '@fieldops/kit';

const PREFIX = 'chg1';

export function encodeChangeCursor(tenantId: string, seq: number): string {
  return Buffer.from(`${PREFIX}:${tenantId}:${seq}`, 'utf8').toString('base64url');
}

const refused = (why: string): AppError =>
  new AppError(
    'field_invalid',
    `cursor ${why}; pass a nextCursor from GET /changes, or none to start over.`,
    {
      field: 'cursor',
    },
  );

/** The sequence number after which the page starts; a cursor that is not this tenant's is a 400. */
export function decodeChangeCursor(tenantId: string, cursor: string): number {
  if (!/^[\w-]+$/.test(cursor)) throw refused('is not a change-feed cursor');
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = new RegExp(`^${PREFIX}:(.+):(\\d{1,15})$`).exec(text);
  if (!match) throw refused('is not a change-feed cursor');
  if (match[1] !== tenantId) throw refused('was issued to another tenant');
  return Number(match[2]);
}
