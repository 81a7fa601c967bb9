// Signing secrets in the Standard Webhooks format: `whsec_` followed by base64 of random bytes
// (the spec asks for 24 to 64 bytes; we use 32). The secret must be kept as is (an HMAC key
// cannot be hashed away), so it is stored in the service's own store and shown to a caller only
// in the answer to create and rotate.
import { randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

export const newSigningSecret = (): string =>
  `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;

/** What a person sees to tell secrets apart: the prefix and the last four characters. */
export const secretHint = (secret: string): string => `${SECRET_PREFIX}…${secret.slice(-4)}`;
