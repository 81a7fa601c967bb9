// First start: a demo tenant and a Manager token whose secret the platform prints once
// (ARCHITECTURE §5). The tenant has a fixed id, so later starts find it with one get and print
// nothing; a secret is only ever shown by the start that issued it.
import type { Actor } from './actor.ts';
import type { Identity } from './index.ts';
import type { Tenant } from './model.ts';

export const DEMO_TENANT_ID = 'ten_demo';
export const DEMO_TENANT_NAME = 'Demo Drone Co';

const SYSTEM: Actor = { kind: 'system' };

export async function ensureDemoTenant(
  identity: Identity,
): Promise<{ tenant: Tenant; token?: { secret: string } }> {
  const existing = await identity.tenants.get(DEMO_TENANT_ID);
  // A demo tenant with no token at all means a first start stopped half-way: finish it.
  if (existing && (await identity.tokens.count(existing.id)) > 0) return { tenant: existing };
  const tenant =
    existing ?? (await identity.tenants.create({ name: DEMO_TENANT_NAME }, SYSTEM, { id: DEMO_TENANT_ID }));
  const { secret } = await identity.tokens.issue(
    tenant,
    { role: 'Manager', name: 'Demo Manager token' },
    SYSTEM,
  );
  return { tenant, token: { secret } };
}
