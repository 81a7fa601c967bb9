// The internal trust of a test run: a CA, one certificate naming every process kind, and the
// gateway's context keys, as PEM. Made once per `jest` run by the global setup and handed to the
// workers in an environment variable, because making it needs @peculiar/x509 (internal-ca.ts),
// whose module graph cost every test file about 0.4 s to load again (jest gives each file a fresh
// module registry). Only test/support reads the variable; no platform code does.
export const TEST_TRUST_VARIABLE = 'FIELDOPS_TEST_INTERNAL_TRUST';

/** The trust as the settings FIELDOPS_TLS_* and FIELDOPS_CONTEXT_* spell it (trustFromEnv reads them). */
export async function makeTestTrust(): Promise<Record<string, string>> {
  const { PROCESS_KINDS } = await import('@fieldops/kit/grpc');
  const { contextKeyPem, makeContextKeys, makeInternalCa } = await import('@fieldops/kit/internal-ca');
  const ca = await makeInternalCa('fieldops test CA', 2);
  const issued = await ca.issue(PROCESS_KINDS);
  const keys = makeContextKeys();
  return {
    FIELDOPS_TLS_CA: ca.cert,
    FIELDOPS_TLS_CERT: issued.cert,
    FIELDOPS_TLS_KEY: issued.key,
    FIELDOPS_CONTEXT_PUBLIC_KEY: contextKeyPem(keys.publicKey),
    FIELDOPS_CONTEXT_SIGNING_KEY: contextKeyPem(keys.privateKey),
  };
}
