// Secrets: API token secrets (random, looked up by sha256), portal session secrets, and member
// passwords (scrypt). Nothing here touches the store; nothing stored can be turned back into a
// secret.
import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { ScryptOptions } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Bytes at or above this are rejected: 248 = 4 × 62, so the kept bytes map evenly onto BASE62. */
const UNBIASED_LIMIT = 256 - (256 % BASE62.length);

export const TOKEN_PREFIX = 'fop_';
export const TOKEN_BODY_LENGTH = 40;
const TOKEN_PATTERN = new RegExp(`^${TOKEN_PREFIX}[0-9A-Za-z]{${TOKEN_BODY_LENGTH}}$`);

export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < UNBIASED_LIMIT && out.length < length) out += BASE62[byte % BASE62.length];
    }
  }
  return out;
}

/** `fop_` + 40 base62 characters (about 238 bits). */
export const newTokenSecret = (): string => TOKEN_PREFIX + randomBase62(TOKEN_BODY_LENGTH);

/** Cheap shape check, so garbage never reaches the store. */
export const looksLikeTokenSecret = (value: string): boolean => TOKEN_PATTERN.test(value);

export const sha256Hex = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

/** Redacted copy for lists: prefix, first four and last four characters of the random part. */
export function redact(secret: string): string {
  const body = secret.slice(TOKEN_PREFIX.length);
  return `${TOKEN_PREFIX}${body.slice(0, 4)}…${body.slice(-4)}`;
}

/** Constant-time equality of two hex digests (false when lengths differ). */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

/** Constant-time equality of two strings of any length: compares their sha256 digests. */
export const sameSecret = (a: string, b: string): boolean => sameDigest(sha256Hex(a), sha256Hex(b));

/** Portal session cookie secret: 32 random bytes, base64url. */
export const newSessionSecret = (): string => randomBytes(32).toString('base64url');
export const looksLikeSessionSecret = (value: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(value);

// Member passwords. The parameters are stored with the hash so they can be raised later without
// invalidating existing passwords.
const SCRYPT = { N: 16384, r: 8, p: 1, keyLength: 32, saltLength: 16 };

function scryptAsync(
  password: string,
  salt: Buffer,
  keyLength: number,
  options: ScryptOptions,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, keyLength, options, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/** `scrypt$N$r$p$salt$hash` with base64url salt and hash. */
export async function hashPassword(password: string): Promise<string> {
  const { N, r, p, keyLength, saltLength } = SCRYPT;
  const salt = randomBytes(saltLength);
  const key = await scryptAsync(password, salt, keyLength, { N, r, p });
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const options = { N: Number(n), r: Number(r), p: Number(p), maxmem: 64 * 1024 * 1024 };
  const key = await scryptAsync(password, Buffer.from(salt, 'base64url'), expected.length, options);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * A valid hash of a password nobody knows. Login checks unknown emails against it so that a wrong
 * email takes as long as a wrong password and does not reveal which members exist.
 */
let decoyHash: Promise<string> | undefined;
export const decoyPasswordHash = (): Promise<string> => (decoyHash ??= hashPassword(randomBase62(32)));
