// List cursors carry an HMAC (docs/security.md, "Signed cursors"). The stores' cursors are typed
// and decoded strictly (services/kit/src/store/cursor.ts), but a client could still forge or edit
// a position. The gateway seals every nextCursor it answers with a MAC bound to the tenant and the
// operation, and opens every cursor it is sent before the service sees it: a forged, edited or
// borrowed (another list's, another tenant's) cursor is 400 field_invalid on cursor.
import { createHmac, createSecretKey, hkdfSync, timingSafeEqual } from 'node:crypto';
import { AppError } from '@fieldops/kit';

/** 128 bits of HMAC-SHA256, base64url: 22 characters after the dot. */
const MAC_BYTES = 16;

export interface CursorBinding {
  tenantId: string;
  operationId: string;
}

export interface CursorSeal {
  seal(cursor: string, binding: CursorBinding): string;
  /** The cursor the service issued, or 400 field_invalid when the MAC does not hold. */
  open(sealed: string, binding: CursorBinding): string;
}

/**
 * The key when FIELDOPS_CURSOR_KEY is unset: derived from the admin secret (itself generated into
 * the data dir when unset), so an embedded start needs nothing more and every gateway replica
 * sharing that secret accepts the others' cursors.
 */
export function deriveCursorKey(adminSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', adminSecret, 'fieldops', 'list-cursor-hmac-v1', 32));
}

export function createCursorSeal(secret: string | Buffer): CursorSeal {
  // A KeyObject made once: given a string or Buffer, createHmac makes one on every call, through
  // a slow type check (about 12 µs of the page read's MAC against 2.5 µs).
  const key = createSecretKey(typeof secret === 'string' ? Buffer.from(secret, 'utf8') : secret);
  const macOf = (cursor: string, { tenantId, operationId }: CursorBinding): Buffer =>
    createHmac('sha256', key)
      .update(`${tenantId}\n${operationId}\n${cursor}`)
      .digest()
      .subarray(0, MAC_BYTES);
  return {
    seal: (cursor, binding) => `${cursor}.${macOf(cursor, binding).toString('base64url')}`,
    open(sealed, binding) {
      const dot = sealed.lastIndexOf('.');
      const cursor = sealed.slice(0, Math.max(dot, 0));
      const given = Buffer.from(sealed.slice(dot + 1), 'base64url');
      const expected = macOf(cursor, binding);
      if (dot <= 0 || given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new AppError(
          'field_invalid',
          'cursor was not issued for this list, or was changed; pass the nextCursor of the previous page exactly as it came, or leave cursor out to start at the first page.',
          { field: 'cursor' },
        );
      }
      return cursor;
    },
  };
}
