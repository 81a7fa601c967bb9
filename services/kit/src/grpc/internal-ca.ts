// A CA of its own, for the places that have no cert-manager: the one-process platform (`npm
// start`), `npm run cluster` and the tests. It issues each process kind a certificate naming it
// (identity.ts); a deployment gets the same shapes from a Secret instead (docs/deploy.md).
// X.509 is written by @peculiar/x509 over Node's Web Crypto: node:crypto reads certificates but
// cannot make them.
import { generateKeyPairSync, KeyObject, randomBytes, webcrypto } from 'node:crypto';
// @peculiar/x509 resolves its parts through tsyringe, which needs the Reflect metadata polyfill first.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { identityUri } from './identity.ts';
import type { InternalTrust } from './trust.ts';

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

// Node's Web Crypto is the standard one; its type is Node's own declaration of it.
x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[1]);

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;

export interface IssuedCertificate {
  /** PEM */
  cert: string;
  key: string;
}

export interface InternalCa {
  /** PEM: what every process trusts (ca.crt). */
  cert: string;
  /** A certificate naming `kinds`, for a server and client both. */
  issue(
    kinds: readonly string[],
    options?: { validDays?: number; notBefore?: Date },
  ): Promise<IssuedCertificate>;
}

const pemKey = (key: CryptoKey): string =>
  KeyObject.from(key).export({ type: 'pkcs8', format: 'pem' }).toString();

const serial = (): string =>
  randomBytes(12)
    .toString('hex')
    .replace(/^[89a-f]/, '1');

const newKeys = (): Promise<CryptoKeyPair> =>
  webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']) as Promise<CryptoKeyPair>;

/** A new CA, valid `validDays` (default a year). */
export async function makeInternalCa(name = 'fieldops internal CA', validDays = 365): Promise<InternalCa> {
  const keys = await newKeys();
  const notBefore = new Date(Date.now() - 60_000);
  const caCert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=${name}`,
    notBefore,
    notAfter: new Date(notBefore.getTime() + validDays * DAY_MS),
    signingAlgorithm: ALGORITHM,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
    ],
  });
  return {
    cert: caCert.toString('pem'),
    async issue(kinds, options = {}) {
      const leafKeys = await newKeys();
      const start = options.notBefore ?? new Date(Date.now() - 60_000);
      const cert = await x509.X509CertificateGenerator.create({
        serialNumber: serial(),
        subject: `CN=${kinds[0] ?? 'fieldops'}`,
        issuer: caCert.subject,
        notBefore: start,
        notAfter: new Date(start.getTime() + (options.validDays ?? validDays) * DAY_MS),
        signingAlgorithm: ALGORITHM,
        signingKey: keys.privateKey,
        publicKey: leafKeys.publicKey,
        extensions: [
          new x509.BasicConstraintsExtension(false, undefined, true),
          new x509.ExtendedKeyUsageExtension([
            x509.ExtendedKeyUsage.serverAuth,
            x509.ExtendedKeyUsage.clientAuth,
          ]),
          new x509.SubjectAlternativeNameExtension([
            ...kinds.map((kind) => ({ type: 'url' as const, value: identityUri(kind) })),
            { type: 'dns', value: 'localhost' },
            { type: 'ip', value: '127.0.0.1' },
          ]),
        ],
      });
      return { cert: cert.toString('pem'), key: pemKey(leafKeys.privateKey) };
    },
  };
}

export interface ContextKeys {
  publicKey: KeyObject;
  privateKey: KeyObject;
}

/** The gateway's Ed25519 context key pair. */
export const makeContextKeys = (): ContextKeys => generateKeyPairSync('ed25519');

/** PEM of a context key, for FIELDOPS_CONTEXT_PUBLIC_KEY / FIELDOPS_CONTEXT_SIGNING_KEY. */
export const contextKeyPem = (key: KeyObject): string =>
  key
    .export(key.type === 'public' ? { type: 'spki', format: 'pem' } : { type: 'pkcs8', format: 'pem' })
    .toString();

/** A trust for `kinds` from `ca`; it signs request contexts when given the gateway's keys' private half. */
export async function issueTrust(
  ca: InternalCa,
  kinds: readonly string[],
  keys: ContextKeys,
  options: { signs?: boolean } = {},
): Promise<InternalTrust> {
  const issued = await ca.issue(kinds);
  return {
    ca: Buffer.from(ca.cert),
    cert: Buffer.from(issued.cert),
    key: Buffer.from(issued.key),
    contextKey: keys.publicKey,
    ...(options.signs ? { signingKey: keys.privateKey } : {}),
  };
}
