// Every test file's servers and clients use the run's internal trust (test-trust.ts: a CA, one
// certificate naming every process kind, plus the gateway's context keys; the file plays every
// part, as the one-process platform does) unless a test passes its own (test/internal-calls.test.ts).
import { hasProcessTrust, setProcessTrust, trustFromEnv } from '@fieldops/kit/grpc';
import { TEST_TRUST_VARIABLE, makeTestTrust } from './test-trust.ts';

beforeAll(async () => {
  if (hasProcessTrust()) return;
  const made = process.env[TEST_TRUST_VARIABLE];
  // Without the global setup (a config of one's own), the file makes a trust for itself.
  const settings = made ? (JSON.parse(made) as Record<string, string>) : await makeTestTrust();
  setProcessTrust(trustFromEnv(settings));
});
