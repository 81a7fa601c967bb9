// The topology's own PKI (npm run cluster): a CA, one certificate per process kind naming it
// (<dir>/<kind>/tls.crt, tls.key, ca.crt: the layout of a cert-manager Secret mounted at
// FIELDOPS_TLS_DIR), one naming every kind for the test process that plays other parts
// (<dir>/tests), and the gateway's Ed25519 context key pair (<dir>/context-public.pem,
// context-signing.pem). Made by the same code as the one-process platform's (kit grpc/internal-ca.ts).
// Usage: node scripts/cluster/make-pki.ts <dir>
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROCESS_KINDS } from '@fieldops/kit/grpc';
import { contextKeyPem, makeContextKeys, makeInternalCa } from '@fieldops/kit/internal-ca';

const dir = process.argv[2];
if (!dir) throw new Error('usage: make-pki.ts <dir>');

const write = (path: string, text: string) => writeFileSync(path, text, { mode: 0o600 });

const ca = await makeInternalCa('fieldops cluster CA', 30);
const identities: [string, readonly string[]][] = [
  ...PROCESS_KINDS.map((kind): [string, string[]] => [kind, [kind]]),
  ['tests', PROCESS_KINDS],
];
for (const [name, kinds] of identities) {
  const issued = await ca.issue(kinds);
  mkdirSync(join(dir, name), { recursive: true, mode: 0o700 });
  write(join(dir, name, 'tls.crt'), issued.cert);
  write(join(dir, name, 'tls.key'), issued.key);
  write(join(dir, name, 'ca.crt'), ca.cert);
}
const keys = makeContextKeys();
write(join(dir, 'context-public.pem'), contextKeyPem(keys.publicKey));
write(join(dir, 'context-signing.pem'), contextKeyPem(keys.privateKey));
