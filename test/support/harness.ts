// Starts the real platform (every service, gRPC, relays, audit) on a temporary data dir and
// talks to it over HTTP, as a client would. Tests get generous rate limits unless they ask.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@fieldops/kit/config';
import { createLogger } from '@fieldops/kit/log';
import { startPlatform, type RunningPlatform } from '@fieldops/platform/platform';

export interface Reply<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T & { ok: boolean; code?: string; error?: string };
}

export type Body = Record<string, unknown>;

export interface Client {
  request(
    method: string,
    path: string,
    options?: { body?: unknown; headers?: Record<string, string> },
  ): Promise<Reply<Body>>;
  get(path: string, headers?: Record<string, string>): Promise<Reply<Body>>;
  post(path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply<Body>>;
  patch(path: string, body: unknown, headers?: Record<string, string>): Promise<Reply<Body>>;
}

export interface TestPlatform {
  url: string;
  dataDir: string;
  running: RunningPlatform;
  /** A client with no credential. */
  anonymous: Client;
  /** A client for the operator admin API. */
  admin: Client;
  client(token: string): Client;
  /** A fresh tenant with a Manager token. */
  tenant(name?: string): Promise<{ tenantId: string; token: string; api: Client }>;
  /** Issues a token in a tenant through the admin API and returns a client for it. */
  token(tenantId: string, spec: Body): Promise<{ id: string; secret: string; api: Client }>;
  stop(options?: { keepData?: boolean }): Promise<void>;
}

export function httpClient(base: string, auth?: string): Client {
  const request: Client['request'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = {
      ...(auth ? { authorization: `Bearer ${auth}` } : {}),
      ...options.headers,
    };
    let payload: string | undefined;
    if (options.body !== undefined) {
      payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${base}${path}`, { method, headers, body: payload });
    const text = await res.text();
    const body = (text ? JSON.parse(text) : {}) as Reply<Body>['body'];
    return { status: res.status, headers: res.headers, body };
  };
  return {
    request,
    get: (path, headers) => request('GET', path, { headers }),
    post: (path, body, headers) => request('POST', path, { body, headers }),
    patch: (path, body, headers) => request('PATCH', path, { body, headers }),
  };
}

export const GENEROUS_LIMITS = {
  FIELDOPS_RATE_READS_PER_MIN: '100000',
  FIELDOPS_RATE_WRITES_PER_MIN: '100000',
};

export async function startTestPlatform(
  env: Record<string, string> = {},
  dataDir?: string,
): Promise<TestPlatform> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'fieldops-test-'));
  const config = loadConfig(
    {
      PORT: '0',
      FIELDOPS_DATA_DIR: dir,
      FIELDOPS_ADMIN_SECRET: 'test-admin-secret',
      LOG_LEVEL: 'silent',
      ...GENEROUS_LIMITS,
      ...env,
    },
    dir,
  );
  const running = await startPlatform(config, createLogger('test', 'silent'));
  const admin = httpClient(`${running.url}/admin/v1`, running.adminSecret);
  const token: TestPlatform['token'] = async (tenantId, spec) => {
    const issued = await admin.post(`/tenants/${tenantId}/tokens`, spec);
    if (issued.status !== 201) throw new Error(`token issue failed: ${JSON.stringify(issued.body)}`);
    const t = issued.body.token as { id: string; secret: string };
    return { id: t.id, secret: t.secret, api: httpClient(`${running.url}/api/v1`, t.secret) };
  };
  return {
    url: running.url,
    dataDir: dir,
    running,
    anonymous: httpClient(`${running.url}/api/v1`),
    admin,
    client: (secret) => httpClient(`${running.url}/api/v1`, secret),
    token,
    tenant: async (name = 'Test Tenant') => {
      const created = await admin.post('/tenants', { name });
      if (created.status !== 201) throw new Error(`tenant create failed: ${JSON.stringify(created.body)}`);
      const tenantId = (created.body.tenant as { id: string }).id;
      const manager = await token(tenantId, { role: 'Manager' });
      return { tenantId, token: manager.secret, api: manager.api };
    },
    stop: async (options = {}) => {
      await running.stop();
      if (!options.keepData && !dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Polls `check` until it returns a value (events reach the audit and the services asynchronously). */
export { eventually } from '@fieldops/kit/testing/service-test';

/** Adds a member (no password) to the tenant through the admin API; returns its id. */
export async function newMember(
  platform: TestPlatform,
  tenantId: string,
  email: string,
  role = 'Staff',
): Promise<string> {
  const added = await platform.admin.post(`/tenants/${tenantId}/members`, { name: email, email, role });
  if (added.status !== 201) throw new Error(`member not added: ${JSON.stringify(added.body)}`);
  return (added.body.member as { id: string }).id;
}

/**
 * Adds a member with a password to the tenant and logs them in to the portal; the headers carry
 * the session cookie and the same-site origin the portal's write guard asks for.
 */
export async function portalSession(
  platform: TestPlatform,
  tenantId: string,
  member: { role: string; email: string },
): Promise<Record<string, string>> {
  const password = 'correct horse battery';
  const added = await platform.admin.post(`/tenants/${tenantId}/members`, {
    name: member.email,
    email: member.email,
    role: member.role,
    password,
  });
  if (added.status !== 201) throw new Error(`member not added: ${JSON.stringify(added.body)}`);
  const login = await fetch(`${platform.url}/api/portal/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tenantId, email: member.email, password }),
  });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return { cookie, 'content-type': 'application/json', origin: platform.url };
}
