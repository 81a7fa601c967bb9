// Members: the people of a tenant. Emails are unique per tenant (lower-cased before storing);
// the password, when given, is stored only as an Argon2id hash and never leaves this module's
// callers in a response (see views.ts).
import { AppError, newId, nowIso } from '@fieldops/kit';
import { domainEvent } from '@fieldops/kit/events';
import { StoreConflict, type DocumentStore } from '@fieldops/kit/store';
import { contextFor, type Actor } from './actor.ts';
import { C, withoutVersion, type MemberDoc } from './collections.ts';
import type { Member, Tenant } from './model.ts';
import type { RoleStore } from './roles.store.ts';
import { hashPassword, needsRehash } from './secrets.ts';

export interface NewMember {
  name: string;
  email: string;
  role: string;
  password?: string;
}

const emailTaken = (email: string): AppError =>
  new AppError('field_invalid', `A member with email ${email} already exists in this tenant.`, {
    field: 'email',
  });

export function createMemberStore(store: DocumentStore, roles: RoleStore) {
  async function get(tenantId: string, id: string): Promise<Member | null> {
    const doc = await store.get<MemberDoc>(C.members, tenantId, id);
    return doc ? withoutVersion<Member>(doc) : null;
  }

  return {
    get,

    /** The member, or 404 not_found naming the field that referenced it. */
    async require(tenantId: string, id: string, field = 'memberId'): Promise<Member> {
      const member = await get(tenantId, id);
      if (!member)
        throw new AppError('not_found', `No member with id ${id} exists in this tenant.`, { field });
      return member;
    },

    /** Every member of the tenant by email (a tenant's people are few: the console lists them all). */
    async list(tenantId: string): Promise<Member[]> {
      const docs = await store.find<MemberDoc>(
        C.members,
        tenantId,
        {},
        { sort: { field: 'email', direction: 'asc' }, limit: 500 },
      );
      return docs.map((doc) => withoutVersion<Member>(doc));
    },

    /**
     * Replaces a password hash made the old way (secrets.ts, needsRehash) once the password has
     * been proved; false when the member changed meanwhile (the next login tries again).
     */
    async rehashPassword(tenantId: string, memberId: string, password: string): Promise<boolean> {
      const doc = await store.get<MemberDoc>(C.members, tenantId, memberId);
      if (!doc?.passwordHash || !needsRehash(doc.passwordHash)) return false;
      const passwordHash = await hashPassword(password);
      try {
        await store.commit(tenantId, [
          {
            op: 'replace',
            collection: C.members,
            doc: { ...doc, passwordHash, version: doc.version + 1 },
            expectedVersion: doc.version,
          },
        ]);
        return true;
      } catch (err) {
        if (err instanceof StoreConflict) return false;
        throw err;
      }
    },

    async findByEmail(tenantId: string, email: string): Promise<Member | null> {
      const doc = await store.findOne<MemberDoc>(C.members, tenantId, { email: email.trim().toLowerCase() });
      return doc ? withoutVersion<Member>(doc) : null;
    },

    async create(tenant: Tenant, input: NewMember, actor: Actor): Promise<Member> {
      const role = await roles.require(tenant.id, input.role);
      const email = input.email.trim().toLowerCase();
      // Checked first for a clear answer; the unique key still decides a race.
      if (await store.findOne(C.members, tenant.id, { email })) throw emailTaken(email);
      const member: Member = {
        id: newId('mem'),
        tenantId: tenant.id,
        name: input.name,
        email,
        role: role.name,
        ...(input.password ? { passwordHash: await hashPassword(input.password) } : {}),
        createdAt: nowIso(),
      };
      const ctx = contextFor(actor, tenant, 'createMember');
      const data = { name: member.name, email, role: role.name, canLogIn: Boolean(member.passwordHash) };
      const event = domainEvent('gateway', ctx, 'member.created', { kind: 'member', id: member.id }, data);
      try {
        await store.commit(tenant.id, [
          { op: 'insert', collection: C.members, doc: { ...member, version: 1 } },
          { op: 'emit', event },
        ]);
      } catch (err) {
        throw err instanceof StoreConflict && err.reason === 'unique' ? emailTaken(email) : err;
      }
      return member;
    },
  };
}

export type MemberStore = ReturnType<typeof createMemberStore>;
