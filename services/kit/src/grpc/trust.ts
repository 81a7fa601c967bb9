// What a process holds to take part in internal calls: its certificate and key (mTLS, naming its
// kinds), the CA every internal certificate chains to, the gateway's public context key that
// verifies request contexts, and, in the gateway only, the private key that signs them.
// Set once where a process reads its configuration (startServiceProcess from the environment,
// startPlatform from a CA it makes); servers and clients made afterwards use it.
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../config.ts';
import { kindsOfCertificate } from './identity.ts';

export interface InternalTrust {
  /** PEM: the CA internal certificates chain to (ca.crt). */
  ca: Buffer;
  /** PEM: this process's certificate (tls.crt) and its key (tls.key). */
  cert: Buffer;
  key: Buffer;
  /** The gateway's Ed25519 public key: verifies the request contexts the gateway signed. */
  contextKey: KeyObject;
  /** The gateway's private context key: only the process that runs the gateway holds it. */
  signingKey?: KeyObject;
}

/** The trust plus what is derived from it once. */
export interface LoadedTrust extends InternalTrust {
  /** The kinds this process's certificate names. */
  kinds: readonly string[];
  privateKey: KeyObject;
}

let processTrust: LoadedTrust | undefined;
let loader: (() => InternalTrust) | undefined;

export function loadTrust(trust: InternalTrust): LoadedTrust {
  return { ...trust, kinds: kindsOfCertificate(trust.cert), privateKey: createPrivateKey(trust.key) };
}

/** The trust every server and client of this process uses from now on. */
export function setProcessTrust(trust: InternalTrust): void {
  loader = undefined;
  processTrust = loadTrust(trust);
}

/**
 * The trust is read when the first server or client needs it, so that a process refuses its
 * other configuration problems (an address that is not host:port) first, all in one message.
 */
export function setProcessTrustLoader(load: () => InternalTrust): void {
  processTrust = undefined;
  loader = load;
}

/** True when the process has its trust (startPlatform keeps one a test already set). */
export const hasProcessTrust = (): boolean => processTrust !== undefined || loader !== undefined;

export function currentTrust(): LoadedTrust {
  if (!processTrust && loader) {
    const load = loader;
    loader = undefined;
    setProcessTrust(load());
  }
  if (!processTrust) {
    throw new Error(
      'This process has no internal trust: set FIELDOPS_TLS_CERT, FIELDOPS_TLS_KEY, FIELDOPS_TLS_CA (or FIELDOPS_TLS_DIR) and FIELDOPS_CONTEXT_PUBLIC_KEY (docs/security.md).',
    );
  }
  return processTrust;
}

/** Where a Deployment mounts its certificate Secret (tls.crt, tls.key, ca.crt: cert-manager's keys). */
export const DEFAULT_TLS_DIR = '/etc/fieldops/tls';

function readPem(dir: string, name: string): Buffer {
  try {
    return readFileSync(join(dir, name));
  } catch (err) {
    throw new ConfigError([
      `FIELDOPS_TLS_DIR: ${join(dir, name)} cannot be read (${(err as Error).message}); ` +
        'mount the certificate Secret with tls.crt, tls.key and ca.crt there.',
    ]);
  }
}

function pemKey(name: string, value: string, make: (pem: string) => KeyObject): KeyObject {
  try {
    return make(value.replace(/\\n/g, '\n'));
  } catch {
    throw new ConfigError([`${name} is not a PEM key; see docs/deploy.md (internal calls).`]);
  }
}

/**
 * The certificate, key and CA: as PEM in FIELDOPS_TLS_CERT, FIELDOPS_TLS_KEY and FIELDOPS_TLS_CA
 * (the chart maps them from the keys tls.crt, tls.key and ca.crt of the kind's Secret), else as
 * those files in FIELDOPS_TLS_DIR (npm run cluster).
 */
function certificatesOf(env: NodeJS.ProcessEnv): Pick<InternalTrust, 'ca' | 'cert' | 'key'> {
  const [cert, key, ca] = [env['FIELDOPS_TLS_CERT'], env['FIELDOPS_TLS_KEY'], env['FIELDOPS_TLS_CA']];
  if (cert && key && ca) return { cert: Buffer.from(cert), key: Buffer.from(key), ca: Buffer.from(ca) };
  const dir = env['FIELDOPS_TLS_DIR'] || DEFAULT_TLS_DIR;
  return { ca: readPem(dir, 'ca.crt'), cert: readPem(dir, 'tls.crt'), key: readPem(dir, 'tls.key') };
}

/** A split process's trust from its environment; refuses to start without one. */
export function trustFromEnv(env: NodeJS.ProcessEnv): InternalTrust {
  const publicKey = env['FIELDOPS_CONTEXT_PUBLIC_KEY'];
  if (!publicKey) {
    throw new ConfigError([
      "FIELDOPS_CONTEXT_PUBLIC_KEY is not set: every process verifies request contexts with the gateway's public key.",
    ]);
  }
  const signing = env['FIELDOPS_CONTEXT_SIGNING_KEY'];
  return {
    ...certificatesOf(env),
    contextKey: pemKey('FIELDOPS_CONTEXT_PUBLIC_KEY', publicKey, createPublicKey),
    ...(signing ? { signingKey: pemKey('FIELDOPS_CONTEXT_SIGNING_KEY', signing, createPrivateKey) } : {}),
  };
}
