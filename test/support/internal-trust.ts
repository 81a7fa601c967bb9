// Each test file gets a CA of its own and one certificate naming every process kind, plus the
// gateway's context keys (it plays every part, as the one-process platform does): servers and
// clients the file starts use them unless a test passes its own trust (test/internal-calls.test.ts).
import { PROCESS_KINDS, hasProcessTrust, setProcessTrust } from '@fieldops/kit/grpc';
import { issueTrust, makeContextKeys, makeInternalCa } from '@fieldops/kit/internal-ca';

beforeAll(async () => {
  if (hasProcessTrust()) return;
  const ca = await makeInternalCa('fieldops test CA', 2);
  setProcessTrust(await issueTrust(ca, PROCESS_KINDS, makeContextKeys(), { signs: true }));
});
