// Roles: the built-in ones are data (scopes.ts) and exist in every tenant; custom ones are stored
// per tenant. Names match case-insensitively, so a custom role can never pass for a built-in one
// ("manager", "MANAGER") and two custom roles never differ by case only.
import { AppError, newId, nowIso } from '@fieldops/kit';
import { domainEvent } from '@fieldops/kit/events';
import { StoreConflict, type DocumentStore } from '@fieldops/kit/store';
import { actorRef, contextFor, type Actor } from './actor.ts';
import { C, type RoleDoc } from './collections.ts';
import type { Role, Tenant } from './model.ts';
import { normalize } from './permissions.ts';
import { BUILT_IN_ROLES, isAction, isKind, type Permissions } from './scopes.ts';

export interface NewRole {
  name: string;
  permissions: Permissions;
}

const keyOf = (name: string): string => name.trim().toLowerCase();

/** Frozen through: one object every caller shares, which no caller can change for the others. */
function frozen(permissions: Permissions): Permissions {
  for (const actions of Object.values(permissions)) Object.freeze(actions);
  return Object.freeze(permissions);
}

// Normalised and frozen once: every authenticated request resolves its role, and the data never
// changes, so callers share it instead of each getting a copy.
const BUILT_IN_BY_KEY = new Map(
  Object.entries(BUILT_IN_ROLES).map(([name, role]) => [
    keyOf(name),
    { name, permissions: frozen(normalize(role.permissions)) },
  ]),
);

export function builtInRole(tenantId: string, name: string): Role | null {
  const found = BUILT_IN_BY_KEY.get(keyOf(name));
  if (!found) return null;
  return {
    id: `role_${keyOf(found.name)}`,
    tenantId,
    name: found.name,
    permissions: found.permissions,
    builtIn: true,
  };
}

const toRole = (doc: RoleDoc): Role => ({
  id: doc.id,
  tenantId: doc.tenantId,
  name: doc.name,
  permissions: doc.permissions,
  builtIn: false,
});

/** Typed callers cannot pass an unknown kind or verb; this keeps untyped ones from storing one. */
function assertKnown(permissions: Permissions): void {
  for (const [kind, verbs] of Object.entries(permissions)) {
    if (!isKind(kind) || !(verbs ?? []).every(isAction)) {
      throw new AppError('field_invalid', `permissions.${kind} names an unknown kind or verb.`, {
        field: 'permissions',
      });
    }
  }
}

export function createRoleStore(store: DocumentStore) {
  /** A built-in role or the tenant's custom role of that name (any case); null when neither. */
  async function find(tenantId: string, name: string): Promise<Role | null> {
    const builtIn = builtInRole(tenantId, name);
    if (builtIn) return builtIn;
    const doc = await store.findOne<RoleDoc>(C.roles, tenantId, { nameKey: keyOf(name) });
    return doc ? toRole(doc) : null;
  }

  return {
    find,

    /** The role, or 404 not_found naming the field that referenced it. */
    async require(tenantId: string, name: string, field = 'role'): Promise<Role> {
      const role = await find(tenantId, name);
      if (role) return role;
      const builtIns = Object.keys(BUILT_IN_ROLES).join(', ');
      throw new AppError(
        'not_found',
        `No role named ${name} exists in this tenant; use a built-in role (${builtIns}) or create the custom role first.`,
        { field },
      );
    },

    async create(tenant: Tenant, input: NewRole, actor: Actor): Promise<Role> {
      const name = input.name.trim();
      if (builtInRole(tenant.id, name)) {
        throw new AppError(
          'field_invalid',
          `${name} is a built-in role; give the custom role another name.`,
          {
            field: 'name',
          },
        );
      }
      assertKnown(input.permissions);
      const permissions = normalize(input.permissions);
      const doc: RoleDoc = {
        id: newId('role'),
        tenantId: tenant.id,
        version: 1,
        name,
        nameKey: keyOf(name),
        permissions,
        createdAt: nowIso(),
        createdBy: actorRef(actor),
      };
      const ctx = contextFor(actor, tenant, 'createRole');
      const event = domainEvent(
        'gateway',
        ctx,
        'role.created',
        { kind: 'role', id: doc.id },
        { name, permissions },
      );
      try {
        await store.commit(tenant.id, [
          { op: 'insert', collection: C.roles, doc },
          { op: 'emit', event },
        ]);
      } catch (err) {
        if (!(err instanceof StoreConflict)) throw err;
        throw new AppError(
          'field_invalid',
          `A role named ${name} already exists in this tenant; choose another name.`,
          {
            field: 'name',
          },
        );
      }
      return toRole(doc);
    },

    /** Built-in roles first, then the tenant's custom roles by name. */
    async list(tenantId: string): Promise<Role[]> {
      const custom = await store.find<RoleDoc>(
        C.roles,
        tenantId,
        {},
        { sort: { field: 'nameKey', direction: 'asc' } },
      );
      const builtIns = Object.keys(BUILT_IN_ROLES).flatMap((name) => builtInRole(tenantId, name) ?? []);
      return [...builtIns, ...custom.map(toRole)];
    },
  };
}

export type RoleStore = ReturnType<typeof createRoleStore>;
