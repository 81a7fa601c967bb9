// Low findings of issue 23 at the edge: answers that carry a secret are never cached, /metrics on
// the public port takes the operator secret, and wrong operator secrets are throttled per address.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestPlatform, type TestPlatform } from './support/harness.ts';

let platform: TestPlatform;
let tenantId: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  ({ tenantId } = await platform.tenant('Secrets Co'));
});
afterAll(async () => {
  await platform.stop();
});

const admin = (path: string, init: RequestInit = {}, secret = platform.adminSecret) =>
  fetch(`${platform.url}/admin/v1${path}`, {
    ...init,
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', ...init.headers },
  });

describe('Cache-Control: no-store on secret-bearing answers', () => {
  it('marks a token issued by the operator and one issued in the portal', async () => {
    const issued = await admin(`/tenants/${tenantId}/tokens`, {
      method: 'POST',
      body: JSON.stringify({ role: 'Staff' }),
    });
    expect(issued.status).toBe(201);
    expect(issued.headers.get('cache-control')).toBe('no-store');

    const member = await admin(`/tenants/${tenantId}/members`, {
      method: 'POST',
      body: JSON.stringify({
        name: 'Pat',
        email: 'pat@secrets.test',
        role: 'Staff',
        password: 'correct horse battery',
      }),
    });
    expect(member.status).toBe(201);
    const login = await fetch(`${platform.url}/api/portal/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tenantId, email: 'pat@secrets.test', password: 'correct horse battery' }),
    });
    expect(login.headers.get('cache-control')).toBe('no-store');
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const portal = await fetch(`${platform.url}/api/portal/tokens`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', origin: platform.url },
      body: JSON.stringify({ role: 'Staff' }),
    });
    expect(portal.status).toBe(201);
    expect(portal.headers.get('cache-control')).toBe('no-store');
    // And the API's own answers (tenant data) too.
    const api = await fetch(`${platform.url}/api/v1/me`, {
      headers: {
        authorization: `Bearer ${((await issued.json()) as { token: { secret: string } }).token.secret}`,
      },
    });
    expect(api.headers.get('cache-control')).toBe('no-store');
  });
});

describe('/metrics on the public port', () => {
  it('answers 401 without the operator secret and the metrics with it', async () => {
    const anonymous = await fetch(`${platform.url}/metrics`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ ok: false, code: 'no_credential' });
    const operator = await fetch(`${platform.url}/metrics`, {
      headers: { authorization: `Bearer ${platform.adminSecret}` },
    });
    expect(operator.status).toBe(200);
    expect(await operator.text()).toContain('http_request_duration_seconds');
  });
});

describe('wrong operator secrets', () => {
  it('are throttled per address: after 10 wrong ones, even the right secret is 429 with Retry-After', async () => {
    // Behind a trusted proxy each address has its own allowance; this platform trusts none, so all
    // of them come from 127.0.0.1. That is why this test runs last.
    for (let n = 0; n < 10; n++) {
      expect((await admin('/tenants', {}, `wrong-secret-${n}-padding`)).status).toBe(401);
    }
    const locked = await admin('/tenants');
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await locked.json()).toMatchObject({
      ok: false,
      code: 'rate_limited',
      error: expect.stringMatching(/Too many wrong operator secrets from this address; wait \d+ min/),
    });
  });
});
