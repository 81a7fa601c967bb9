// Tenants of the benches, made as a client would: through the gateway's admin API (a tenant and a
// Manager token, as test/support/harness.ts does) and the public API. Works on any gateway, the
// one-process platform of `npm start` (scripts/bench/servers.ts) or the cluster's
// (scripts/bench/cluster.ts).
import type { TenantApi } from './scale.ts';

export interface TenantInfo {
  id: string;
  currency: string;
  defaultVertical: string;
}

export interface Tenant {
  tenant: TenantInfo;
  tokenId: string;
  token: string;
}

export async function call(
  method: string,
  url: string,
  bearer: string,
  body?: unknown,
): Promise<{ status: number; bytes: Buffer; json: Record<string, unknown> }> {
  const res = await fetch(url, {
    method,
    headers: {
      authorization: `Bearer ${bearer}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  const json = (bytes.length ? JSON.parse(bytes.toString('utf8')) : {}) as Record<string, unknown>;
  return { status: res.status, bytes, json };
}

/** A fresh tenant with a Manager token, through the admin API (as test/support/harness.ts does). */
export async function createTenant(
  gateway: { url: string; adminSecret: string },
  name: string,
): Promise<Tenant> {
  const admin = `${gateway.url}/admin/v1`;
  const created = await call('POST', `${admin}/tenants`, gateway.adminSecret, { name });
  if (created.status !== 201) throw new Error(`tenant create failed: ${created.bytes.toString()}`);
  const tenant = created.json.tenant as TenantInfo;
  const issued = await call('POST', `${admin}/tenants/${tenant.id}/tokens`, gateway.adminSecret, {
    role: 'Manager',
  });
  if (issued.status !== 201) throw new Error(`token issue failed: ${issued.bytes.toString()}`);
  const token = issued.json.token as { id: string; secret: string };
  return { tenant, tokenId: token.id, token: token.secret };
}

/** The public API as one tenant sees it; anything but a 2xx answer stops the bench. */
export function tenantApi(gateway: { url: string }, tenant: Tenant): TenantApi {
  return async (method, path, body) => {
    const reply = await call(method, `${gateway.url}/api/v1${path}`, tenant.token, body);
    if (reply.status >= 300) throw new Error(`${method} ${path}: ${reply.status} ${reply.bytes.toString()}`);
    return reply.json;
  };
}
