// A fresh tenant and a Manager token through the operator API (/admin/v1), for a run that was
// given the operator secret instead of a token: the Node runner always, k6 when ADMIN_SECRET is set.
import { asRecord, asString, json, send, type Flow } from './http.ts';

export interface Provisioned {
  tenantId: string;
  token: string;
}

export function* provisionTenant(name: string, adminSecret: string): Flow<Provisioned> {
  const auth = { authorization: `Bearer ${adminSecret}` };
  const created = yield* send(json('create tenant', 'POST', '/admin/v1/tenants', { name }, [201], auth));
  const tenantId = asString(asRecord(asRecord(created.body).tenant).id);
  const issued = yield* send(
    json('issue token', 'POST', `/admin/v1/tenants/${tenantId}/tokens`, { role: 'Manager' }, [201], auth),
  );
  return { tenantId, token: asString(asRecord(asRecord(issued.body).token).secret) };
}
