// Secrets: API token secrets (random, looked up by sha256), portal session secrets, and member
// passwords (Argon2id). Nothing here touches the store; nothing stored can be turned back into a
// secret.
import { argon2, hash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
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

// crypto.hash: one call, without a Hash object per request (every request hashes its token).
export const sha256Hex = (value: string): string => hash('sha256', value, 'hex');

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

// Member passwords: Argon2id through Node's built-in crypto.argon2 at OWASP's recommended
// parameters (19 MiB, 2 passes, 1 lane). The parameters are stored with the hash (a PHC string),
// so a hash made with older or weaker ones is recognised (needsRehash) and replaced at the next
// successful login. scrypt hashes of earlier versions are still verified, then rehashed.
export const ARGON2 = { memory: 19_456, passes: 2, parallelism: 1, tagLength: 32, saltLength: 16 };

function argon2Async(password: string, salt: Buffer, params: Omit<typeof ARGON2, 'saltLength'>) {
  return new Promise<Buffer>((resolve, reject) => {
    argon2('argon2id', { message: password.normalize('NFKC'), nonce: salt, ...params }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

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

const b64 = (bytes: Buffer): string => bytes.toString('base64').replace(/=+$/, '');

/** `$argon2id$v=19$m=<KiB>,t=<passes>,p=<lanes>$<salt>$<hash>` (PHC string, unpadded base64). */
export async function hashPassword(password: string): Promise<string> {
  const { saltLength, ...params } = ARGON2;
  const salt = randomBytes(saltLength);
  const key = await argon2Async(password, salt, params);
  return `$argon2id$v=19$m=${params.memory},t=${params.passes},p=${params.parallelism}$${b64(salt)}$${b64(key)}`;
}

const ARGON2_PHC =
  /^\$argon2id\$v=19\$m=(\d{1,7}),t=(\d{1,3}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

async function verifyArgon2(password: string, stored: string): Promise<boolean> {
  const match = ARGON2_PHC.exec(stored);
  if (!match) return false;
  const [, m, t, p, salt = '', hash = ''] = match;
  const expected = Buffer.from(hash, 'base64');
  const params = { memory: Number(m), passes: Number(t), parallelism: Number(p), tagLength: expected.length };
  // A stored hash is ours, but its parameters still bound the work one login can cost.
  if (params.memory > 256 * 1024 || params.passes > 10 || expected.length < 16) return false;
  const key = await argon2Async(password, Buffer.from(salt, 'base64'), params);
  return timingSafeEqual(key, expected);
}

/** `scrypt$N$r$p$salt$hash` (base64url), as earlier versions stored passwords. */
async function verifyScrypt(password: string, stored: string): Promise<boolean> {
  const [, n, r, p, salt, hash] = stored.split('$');
  if (!salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const options = { N: Number(n), r: Number(r), p: Number(p), maxmem: 64 * 1024 * 1024 };
  const key = await scryptAsync(password, Buffer.from(salt, 'base64url'), expected.length, options);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (stored.startsWith('$argon2id$')) return verifyArgon2(password, stored);
  if (stored.startsWith('scrypt$')) return verifyScrypt(password, stored);
  return false;
}

/** True for a hash made otherwise than hashPassword makes one now (scrypt, weaker Argon2id). */
export function needsRehash(stored: string): boolean {
  const { memory, passes, parallelism, tagLength } = ARGON2;
  const match = ARGON2_PHC.exec(stored);
  if (!match) return true;
  const [, m, t, p, , hash = ''] = match;
  return (
    Number(m) < memory ||
    Number(t) < passes ||
    Number(p) !== parallelism ||
    Buffer.from(hash, 'base64').length < tagLength
  );
}

/**
 * A valid hash of a password nobody knows. Login checks unknown emails against it so that a wrong
 * email takes as long as a wrong password and does not reveal which members exist.
 */
let decoyHash: Promise<string> | undefined;
export const decoyPasswordHash = (): Promise<string> => (decoyHash ??= hashPassword(randomBase62(32)));
