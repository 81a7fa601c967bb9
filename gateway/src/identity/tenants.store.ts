// Tenants: the platform's directory of customers. Tenant records live in the platform namespace
// (they are looked up before any tenant is known), so `tenant.created` is committed there too, in
// the same commit: creating a tenant is an operator act on the platform, recorded in the
// platform's audit chain.
import { AppError, newId, nowIso } from '@fieldops/kit';
import { domainEvent } from '@fieldops/kit/events';
import { PLATFORM_TENANT, StoreConflict, type DocumentStore, type Page } from '@fieldops/kit/store';
import { contextFor, type Actor } from './actor.ts';
import { C, type TenantDoc } from './collections.ts';
import { pageOf, type ListQuery } from './paging.ts';
import type { Tenant } from './model.ts';
import { DEFAULT_CURRENCY, DEFAULT_VERTICAL } from './schemas.ts';

export interface NewTenant {
  name: string;
  currency?: string;
  defaultVertical?: string;
}

/** The pseudo-tenant whose audit chain records platform-level acts. */
const PLATFORM = { id: PLATFORM_TENANT, currency: '', defaultVertical: '' };

export const toTenant = (doc: TenantDoc): Tenant => ({
  id: doc.id,
  name: doc.name,
  currency: doc.currency,
  defaultVertical: doc.defaultVertical,
  createdAt: doc.createdAt,
});

export function createTenantStore(store: DocumentStore) {
  async function get(id: string): Promise<Tenant | null> {
    const doc = await store.get<TenantDoc>(C.tenants, PLATFORM_TENANT, id);
    return doc ? toTenant(doc) : null;
  }

  return {
    get,

    /** The tenant, or 404 not_found: every admin path under /tenants/:tenantId starts here. */
    async require(id: string): Promise<Tenant> {
      const tenant = await get(id);
      if (!tenant) throw new AppError('not_found', `No tenant with id ${id} exists.`);
      return tenant;
    },

    /** `options.id` fixes the id (the demo tenant); a taken id is a conflict. */
    async create(input: NewTenant, actor: Actor, options: { id?: string } = {}): Promise<Tenant> {
      const tenant: Tenant = {
        id: options.id ?? newId('ten'),
        name: input.name,
        currency: input.currency ?? DEFAULT_CURRENCY,
        defaultVertical: input.defaultVertical ?? DEFAULT_VERTICAL,
        createdAt: nowIso(),
      };
      const doc: TenantDoc = { ...tenant, tenantId: PLATFORM_TENANT, version: 1 };
      const ctx = contextFor(actor, PLATFORM, 'createTenant');
      const event = domainEvent(
        'gateway',
        ctx,
        'tenant.created',
        { kind: 'tenant', id: tenant.id },
        { ...tenant },
      );
      try {
        await store.commit(PLATFORM_TENANT, [
          { op: 'insert', collection: C.tenants, doc },
          { op: 'emit', event },
        ]);
      } catch (err) {
        if (err instanceof StoreConflict) {
          throw new AppError('conflict', `A tenant with id ${tenant.id} already exists.`, {}, { cause: err });
        }
        throw err;
      }
      return tenant;
    },

    /** Oldest first, so an operator paging through sees a stable order. */
    list(query: ListQuery): Promise<Page<Tenant>> {
      return pageOf(store, C.tenants, PLATFORM_TENANT, query, toTenant, 'asc');
    },
  };
}

export type TenantStore = ReturnType<typeof createTenantStore>;
