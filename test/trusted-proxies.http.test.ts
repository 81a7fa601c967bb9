// Client addresses behind a proxy (issue 23): X-Forwarded-For is believed only from the proxies of
// FIELDOPS_TRUSTED_PROXIES, and every per-address limit (failed portal logins, anonymous reads such
// as openapi.json) keys on the address it yields. The test platform listens on 127.0.0.1, so with
// 127.0.0.1/32 trusted the test plays the Ingress controller; without it, the header is ignored
// and every client behind the proxy shares the proxy's address, as before.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestPlatform, type TestPlatform } from './support/harness.ts';

const READS = 3;
/** Failed logins allowed per address in 15 minutes (gateway/src/portal/login-limit.ts). */
const LOGIN_FAILURES = { perAddress: 20 };

async function withPlatform(env: Record<string, string>) {
  const platform = await startTestPlatform({ FIELDOPS_RATE_READS_PER_MIN: String(READS), ...env });
  const { tenantId } = await platform.tenant('Behind A Proxy');
  return { platform, tenantId };
}

/** A failed portal login (a new email each time, so only the per-address allowance runs out). */
async function failedLogin(platform: TestPlatform, tenantId: string, forwardedFor: string, n: number) {
  const res = await fetch(`${platform.url}/api/portal/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
    body: JSON.stringify({ tenantId, email: `nobody${n}@proxy.test`, password: 'wrong password' }),
  });
  return res.status;
}

const openapi = async (platform: TestPlatform, forwardedFor: string) =>
  (await fetch(`${platform.url}/api/v1/openapi.json`, { headers: { 'x-forwarded-for': forwardedFor } }))
    .status;

describe('with FIELDOPS_TRUSTED_PROXIES naming the proxy', () => {
  let platform: TestPlatform;
  let tenantId: string;
  beforeAll(async () => {
    ({ platform, tenantId } = await withPlatform({ FIELDOPS_TRUSTED_PROXIES: '10.0.0.0/8,127.0.0.1/32' }));
  });
  afterAll(async () => {
    await platform.stop();
  });

  it('locks out only the address that failed its logins, as the proxy reports it', async () => {
    for (let n = 0; n < LOGIN_FAILURES.perAddress; n++) {
      // The client's own claim (9.9.9.9) is to the left of what the proxy appended: not believed.
      expect(await failedLogin(platform, tenantId, `9.9.9.${n}, 203.0.113.5`, n)).not.toBe(429);
    }
    expect(await failedLogin(platform, tenantId, '203.0.113.5', 100)).toBe(429);
    expect(await failedLogin(platform, tenantId, '198.51.100.1, 203.0.113.5', 101)).toBe(429);
    // Another user behind the same Ingress is not held back.
    expect(await failedLogin(platform, tenantId, '203.0.113.6', 102)).not.toBe(429);
    // A hop through another trusted proxy (10.1.2.3) still yields the client's address.
    expect(await failedLogin(platform, tenantId, '203.0.113.5, 10.1.2.3', 103)).toBe(429);
  });

  it('gives each client address its own allowance of anonymous reads', async () => {
    for (let n = 0; n < READS; n++) expect(await openapi(platform, '203.0.113.20')).toBe(200);
    expect(await openapi(platform, '203.0.113.20')).toBe(429);
    expect(await openapi(platform, '203.0.113.21')).toBe(200);
  });
});

describe('without FIELDOPS_TRUSTED_PROXIES', () => {
  let platform: TestPlatform;
  let tenantId: string;
  beforeAll(async () => {
    ({ platform, tenantId } = await withPlatform({}));
  });
  afterAll(async () => {
    await platform.stop();
  });

  it('ignores X-Forwarded-For: a client cannot pick the address its limits are counted on', async () => {
    for (let n = 0; n < LOGIN_FAILURES.perAddress; n++) {
      expect(await failedLogin(platform, tenantId, `203.0.113.${n}`, n)).not.toBe(429);
    }
    // Every failure counted against the socket's address, whatever the header said.
    expect(await failedLogin(platform, tenantId, '203.0.113.99', 100)).toBe(429);

    for (let n = 0; n < READS; n++) expect(await openapi(platform, `198.51.100.${n}`)).toBe(200);
    expect(await openapi(platform, '198.51.100.99')).toBe(429);
  });
});
