// Turns a credential into a Caller, or the spec's 401 (Authentication 4): no_credential when
// none was sent; invalid_token, revoked or expired for a dead one. Runs on every request, so
// every lookup is a get by id: the secret's hash → index → token, then tenant, role and member
// in parallel.
import { AppError } from '@fieldops/kit';
import type { Identity } from './index.ts';
import type { ApiToken, Caller, Member, Role, Session } from './model.ts';
import { intersect } from './permissions.ts';
import { looksLikeTokenSecret } from './secrets.ts';

const GET_A_TOKEN = "obtain a new token from the tenant's settings under API tokens";

const dead = (message: string): AppError => new AppError('invalid_token', `${message}; ${GET_A_TOKEN}.`);

/** The secret of an `Authorization: Bearer <secret>` header; the scheme is case-insensitive (RFC 7235). */
export function bearerSecret(header: string | undefined): string {
  if (header === undefined || header.trim() === '') {
    throw new AppError(
      'no_credential',
      "No credential was sent; send the header Authorization: Bearer <API token> (tokens are issued in the tenant's settings under API tokens).",
    );
  }
  const match = /^Bearer +(\S+) *$/i.exec(header.trim());
  if (!match?.[1]) throw dead('The Authorization header is not of the form Bearer <API token>');
  return match[1];
}

export async function authenticateBearer(identity: Identity, header: string | undefined): Promise<Caller> {
  const secret = bearerSecret(header);
  const token = looksLikeTokenSecret(secret) ? await identity.tokens.findBySecret(secret) : null;
  if (!token) throw dead('This token is not recognised');
  checkAlive(token);
  const [tenant, role, member] = await Promise.all([
    identity.tenants.get(token.tenantId),
    identity.roles.find(token.tenantId, token.role),
    token.memberId ? identity.members.get(token.tenantId, token.memberId) : null,
  ]);
  if (!tenant) throw dead("This token's tenant no longer exists");
  if (!role) throw dead(`The role ${token.role} this token was issued against no longer exists`);
  if (token.memberId && !member) throw dead('The member this token is bound to no longer exists');
  const permissions = member
    ? intersect(role.permissions, await memberPermissions(identity, member))
    : role.permissions;
  await identity.tokens.touch(token);
  const narrowing = token.permissions ?? null;
  return {
    kind: 'token',
    tenant,
    tokenId: token.id,
    role: { name: role.name, permissions },
    member: member ? withoutPassword(member) : null,
    narrowing,
    effective: narrowing ? intersect(permissions, narrowing) : permissions,
    projectIds: token.projectIds ?? null,
    expiresAt: token.expiresAt ?? null,
  };
}

function checkAlive(token: ApiToken, now = Date.now()): void {
  if (token.revokedAt) {
    throw new AppError('revoked', `This token was revoked at ${token.revokedAt}; ${GET_A_TOKEN}.`);
  }
  if (token.expiresAt && Date.parse(token.expiresAt) <= now) {
    throw new AppError('expired', `This token expired at ${token.expiresAt}; ${GET_A_TOKEN}.`);
  }
}

/**
 * A member-bound token acts for its member, so it never does more than the member's role allows
 * today (issuing checked this once; the member's role may have changed since).
 */
async function memberPermissions(identity: Identity, member: Member): Promise<Role['permissions']> {
  return (await identity.roles.find(member.tenantId, member.role))?.permissions ?? {};
}

const withoutPassword = ({ passwordHash: _hash, ...member }: Member): Member => member;

const noSession = (message: string): AppError =>
  new AppError('no_session', `${message}; log in to the portal at POST /api/portal/login.`);

/** A portal session from its cookie value; a session acts with its member's role, never narrowed. */
export async function authenticateSession(
  identity: Identity,
  cookieValue: string | undefined,
): Promise<Caller> {
  if (!cookieValue) throw noSession('There is no portal session');
  const session = await identity.sessions.lookup(cookieValue);
  if (!session) throw noSession('The portal session has ended or is not valid');
  const [tenant, member] = await Promise.all([
    identity.tenants.get(session.tenantId),
    identity.members.get(session.tenantId, session.memberId),
  ]);
  if (!tenant || !member) throw noSession('The account of this portal session no longer exists');
  return sessionCaller(tenant, withoutPassword(member), session, await memberPermissions(identity, member));
}

function sessionCaller(
  tenant: Caller['tenant'],
  member: Member,
  session: Session,
  permissions: Role['permissions'],
): Caller {
  return {
    kind: 'session',
    tenant,
    tokenId: session.id,
    sessionId: session.id,
    role: { name: member.role, permissions },
    member,
    narrowing: null,
    effective: permissions,
    projectIds: null,
    expiresAt: session.expiresAt,
  };
}

/** The WWW-Authenticate header for a 401 from authenticateBearer (RFC 6750 §3). */
export function wwwAuthenticate(error: AppError): string {
  if (error.code === 'no_credential') return 'Bearer realm="fieldops"';
  // error_description allows printable ASCII except " and \.
  const description = error.message.replace(/["\\]/g, "'").replace(/[^\x20-\x7e]/g, '?');
  return `Bearer realm="fieldops", error="invalid_token", error_description="${description}"`;
}
