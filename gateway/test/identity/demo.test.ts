import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openEmbeddedStore } from '@fieldops/kit/store';
import { authenticateBearer } from '../../src/identity/authenticate.ts';
import { DEMO_TENANT_NAME, ensureDemoTenant } from '../../src/identity/demo.ts';
import { openIdentity } from '../../src/identity/index.ts';

describe('ensureDemoTenant', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'fieldops-demo-'));
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it('creates the demo tenant and a Manager token on the first start only, across restarts', async () => {
    const firstStore = await openEmbeddedStore({ dir });
    const first = await ensureDemoTenant(await openIdentity({ store: firstStore }));
    expect(first.tenant.name).toBe(DEMO_TENANT_NAME);
    expect(first.token?.secret).toMatch(/^fop_/);
    await firstStore.close();

    const secondStore = await openEmbeddedStore({ dir });
    const identity = await openIdentity({ store: secondStore });
    try {
      const second = await ensureDemoTenant(identity);
      expect(second.tenant).toEqual(first.tenant);
      expect(second.token).toBeUndefined();
      // The first start's token survived the restart and acts as a Manager of the demo tenant.
      const caller = await authenticateBearer(identity, `Bearer ${first.token?.secret ?? ''}`);
      expect(caller).toMatchObject({ tenant: { id: first.tenant.id }, role: { name: 'Manager' } });
      expect((await identity.tenants.list({ limit: 100 })).items).toHaveLength(1);
    } finally {
      await secondStore.close();
    }
  });

  it('finishes a first start that stopped before the token was issued', async () => {
    const store = await openEmbeddedStore({ dir });
    try {
      const identity = await openIdentity({ store });
      const first = await ensureDemoTenant(identity);
      // Simulate the half-done start: the tenant exists, its token does not.
      await store.commit(first.tenant.id, [
        {
          op: 'delete',
          collection: 'tokens',
          id: (await identity.tokens.list(first.tenant.id, { limit: 1 })).items[0]?.id ?? '',
        },
      ]);
      const again = await ensureDemoTenant(identity);
      expect(again.token?.secret).toMatch(/^fop_/);
      expect(await ensureDemoTenant(identity)).not.toHaveProperty('token');
    } finally {
      await store.close();
    }
  });
});
