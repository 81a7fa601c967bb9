import { authorize, canAccessProject } from '../../src/identity/authorize.ts';
import type { Caller } from '../../src/identity/model.ts';
import { intersect } from '../../src/identity/permissions.ts';
import { BUILT_IN_ROLES } from '../../src/identity/scopes.ts';
import type { Permissions } from '../../src/identity/scopes.ts';

const roleOf = (name: string): Permissions => {
  const role = BUILT_IN_ROLES[name];
  if (!role) throw new Error(`no built-in role ${name}`);
  return role.permissions;
};

/** A token caller as authenticateBearer builds it: effective = role ∩ narrowing. */
function caller(
  roleName: string,
  permissions: Permissions,
  narrowing: Permissions | null = null,
  projectIds: string[] | null = null,
): Caller {
  return {
    kind: 'token',
    tenant: {
      id: 'ten_1',
      name: 'T',
      currency: 'USD',
      defaultVertical: 'survey',
      createdAt: '2024-01-01T00:00:00Z',
    },
    tokenId: 'tok_1',
    role: { name: roleName, permissions },
    member: null,
    narrowing,
    effective: narrowing ? intersect(permissions, narrowing) : permissions,
    projectIds,
    expiresAt: null,
  };
}

describe('authorize', () => {
  it('allows what the effective permissions grant', () => {
    expect(authorize(caller('Manager', roleOf('Manager')), { action: 'update', kind: 'settings' })).toEqual({
      allowed: true,
    });
    expect(authorize(caller('Viewer', roleOf('Viewer')), { action: 'read', kind: 'deal' })).toEqual({
      allowed: true,
    });
  });

  it('answers read_only to a Viewer write, naming the required scope', () => {
    const result = authorize(caller('Viewer', roleOf('Viewer')), { action: 'create', kind: 'lead' });
    expect(result).toMatchObject({
      allowed: false,
      code: 'read_only',
      required: { action: 'create', kind: 'lead' },
    });
    expect(result.allowed || result.reason).toMatch(/Viewer is read-only/);
  });

  it('answers out_of_scope (not read_only) to a write by a Manager token narrowed to reads', () => {
    const token = caller('Manager', roleOf('Manager'), { lead: ['read'], deal: ['read'] });
    expect(authorize(token, { action: 'update', kind: 'deal' })).toMatchObject({
      code: 'out_of_scope',
      required: { action: 'update', kind: 'deal' },
    });
    expect(authorize(token, { action: 'create', kind: 'lead' })).toMatchObject({ code: 'out_of_scope' });
  });

  it('answers role_denied to Staff on settings (the role does not grant it)', () => {
    const staff = caller('Staff', roleOf('Staff'));
    expect(authorize(staff, { action: 'update', kind: 'settings' })).toMatchObject({
      allowed: false,
      code: 'role_denied',
      required: { action: 'update', kind: 'settings' },
    });
    expect(authorize(staff, { action: 'read', kind: 'settings' })).toMatchObject({ code: 'role_denied' });
    expect(authorize(staff, { action: 'create', kind: 'lead' })).toEqual({ allowed: true });
  });

  it('answers out_of_scope when the role grants it but the narrowing removed it', () => {
    const token = caller('Manager', roleOf('Manager'), { lead: ['read', 'create'] });
    expect(authorize(token, { action: 'create', kind: 'lead' })).toEqual({ allowed: true });
    expect(authorize(token, { action: 'update', kind: 'lead' })).toMatchObject({ code: 'out_of_scope' });
    expect(authorize(token, { action: 'read', kind: 'deal' })).toMatchObject({ code: 'out_of_scope' });
  });

  it('answers role_denied over out_of_scope when neither role nor narrowing grants it', () => {
    const token = caller('Staff', roleOf('Staff'), { lead: ['read', 'create'] });
    expect(authorize(token, { action: 'update', kind: 'settings' })).toMatchObject({ code: 'role_denied' });
  });

  it('applies a custom role', () => {
    const estimator = caller('Estimator', { deal: ['read', 'update'], customer: ['read'] });
    expect(authorize(estimator, { action: 'update', kind: 'deal' })).toEqual({ allowed: true });
    expect(authorize(estimator, { action: 'create', kind: 'deal' })).toMatchObject({ code: 'role_denied' });
    expect(authorize(estimator, { action: 'read', kind: 'lead' })).toMatchObject({ code: 'role_denied' });
    const readOnlyCustom = caller('Auditor', { deal: ['read'] });
    expect(authorize(readOnlyCustom, { action: 'update', kind: 'deal' })).toMatchObject({
      code: 'read_only',
    });
  });

  it('never answers read_only to a read', () => {
    const nothing = caller('Nothing', {});
    expect(authorize(nothing, { action: 'read', kind: 'lead' })).toMatchObject({ code: 'role_denied' });
    expect(authorize(nothing, { action: 'create', kind: 'lead' })).toMatchObject({ code: 'read_only' });
  });
});

describe('canAccessProject', () => {
  it('allows every project when the credential is not restricted', () => {
    expect(canAccessProject(caller('Manager', roleOf('Manager')), 'prj_any')).toBe(true);
  });

  it('allows only the listed projects of a project-restricted token', () => {
    const restricted = caller('Staff', roleOf('Staff'), null, ['prj_a', 'prj_b']);
    expect(canAccessProject(restricted, 'prj_a')).toBe(true);
    expect(canAccessProject(restricted, 'prj_c')).toBe(false);
  });
});
