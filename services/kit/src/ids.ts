import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * Opaque ids prefixed by kind (`lead_…`). The first 9 characters are the time in base36 so ids
 * sort roughly by creation, which keeps store indexes and logs readable.
 */
export function newId(prefix: string): string {
  const time = Date.now().toString(36).padStart(9, '0');
  const bytes = randomBytes(12);
  let rand = '';
  for (const byte of bytes) rand += ALPHABET[byte % 36];
  return `${prefix}_${time}${rand}`;
}

export const nowIso = (): string => new Date().toISOString();
