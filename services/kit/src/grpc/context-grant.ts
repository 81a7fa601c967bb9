// The request context a service acts on is signed, so a service can tell it came from the gateway
// for this request (or, for a system principal, from a system process's own certificate), and a
// peer that reaches its port cannot act as any tenant it likes. The grant binds the request id,
// the tenant and the principal for a few minutes; a service forwards it unchanged on the calls it
// makes for the request, and cannot mint one (it holds only the gateway's public key).
import { sign, verify, X509Certificate, type KeyObject } from 'node:crypto';
import type { common } from '@fieldops/proto';
import type { RequestContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { PLATFORM_TENANT } from '../store/port.ts';
import { SYSTEM_KINDS } from './callers.gen.ts';
import { kindsOfSubjectAltName } from './identity.ts';
import type { LoadedTrust } from './trust.ts';

/** How long a grant is good for: longer than any request's chain of calls, short enough to be useless stolen. */
export const GRANT_TTL_MS = 5 * 60_000;
/** Clock difference between pods that is tolerated on the issue side. */
const SKEW_MS = 30_000;
const GATEWAY_ISSUER = 'gateway';

interface Claims {
  iss: string;
  requestId: string;
  tenant: common.Tenant;
  principal: common.Principal;
  exp: number;
}

const isSystem = (ctx: RequestContext): boolean => ctx.principal?.kind === 'system';

function claimsOf(ctx: RequestContext, iss: string, now: number): Claims {
  const tenant = ctx.tenant ?? { id: '', currency: '', defaultVertical: '' };
  const principal = ctx.principal ?? { kind: '', tokenId: '', role: '', memberId: '' };
  return {
    iss,
    requestId: ctx.requestId,
    tenant: { id: tenant.id, currency: tenant.currency, defaultVertical: tenant.defaultVertical },
    principal: {
      kind: principal.kind,
      tokenId: principal.tokenId,
      role: principal.role,
      memberId: principal.memberId,
    },
    exp: now + GRANT_TTL_MS,
  };
}

const algorithmOf = (key: KeyObject): string | null =>
  key.asymmetricKeyType === 'ed25519' ? null : 'sha256';

/**
 * The context to send: its own grant when it carries one (forwarded unchanged), else one this
 * process signs: the gateway for a caller's principal, a system process for a system principal.
 * Undefined when this process may sign neither (a service calling with a context it did not get).
 */
export function grantedContext(ctx: RequestContext, trust: LoadedTrust, now = Date.now()): RequestContext {
  if (ctx.grant) return ctx;
  let grant: common.ContextGrant | undefined;
  if (isSystem(ctx)) {
    const iss = trust.kinds.find((kind) => SYSTEM_KINDS.includes(kind));
    if (iss) grant = signed(claimsOf(ctx, iss, now), trust.privateKey, trust.cert.toString('utf8'));
  } else if (trust.signingKey) {
    grant = signed(claimsOf(ctx, GATEWAY_ISSUER, now), trust.signingKey, '');
  }
  return grant ? { ...ctx, grant } : ctx;
}

function signed(claims: Claims, key: KeyObject, signer: string): common.ContextGrant {
  const bytes = Buffer.from(JSON.stringify(claims));
  return { claims: bytes, signature: sign(algorithmOf(key), bytes, key), signer };
}

const unauthenticated = (why: string) =>
  new AppError(
    'invalid_token',
    `The call's request context ${why}; internal calls carry the gateway's signed context.`,
  );
const denied = (why: string) => new AppError('role_denied', `The call's request context ${why}.`);

function parseClaims(bytes: Uint8Array): Claims {
  try {
    const claims = JSON.parse(Buffer.from(bytes).toString('utf8')) as Claims;
    if (typeof claims.exp !== 'number' || typeof claims.iss !== 'string') throw new Error('shape');
    return claims;
  } catch {
    throw unauthenticated('carries unreadable claims');
  }
}

/** A signer's certificate once read and chained to the CA: what each call still checks. */
interface CheckedSigner {
  publicKey: KeyObject;
  kinds: readonly string[];
  validFrom: number;
  validTo: number;
}

/**
 * Signers already chained to a CA, by CA and certificate text. Every system call carries its
 * process's certificate, and a process has one: parsing and chaining it on each call would
 * repeat the same X.509 work on the event consumers' and workers' hot path. Bounded, as the
 * text comes from the caller.
 */
const checkedSigners = new WeakMap<Buffer, Map<string, CheckedSigner>>();
const MAX_SIGNERS_PER_CA = 64;

function checkedSigner(pem: string, trust: LoadedTrust): CheckedSigner {
  let known = checkedSigners.get(trust.ca);
  if (!known) checkedSigners.set(trust.ca, (known = new Map()));
  const found = known.get(pem);
  if (found) return found;
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(pem);
  } catch {
    throw unauthenticated('is signed by no readable certificate');
  }
  const ca = new X509Certificate(trust.ca);
  if (!cert.checkIssued(ca) || !cert.verify(ca.publicKey))
    throw unauthenticated('is signed by a certificate of no internal CA');
  const checked = {
    publicKey: cert.publicKey,
    kinds: kindsOfSubjectAltName(cert.subjectAltName),
    validFrom: Date.parse(cert.validFrom),
    validTo: Date.parse(cert.validTo),
  };
  if (known.size >= MAX_SIGNERS_PER_CA) known.clear();
  known.set(pem, checked);
  return checked;
}

/** The system kind whose certificate (chained to the CA) signed the claims, or a refusal. */
function systemSigner(grant: common.ContextGrant, trust: LoadedTrust, iss: string): KeyObject {
  const cert = checkedSigner(grant.signer, trust);
  const now = Date.now();
  if (cert.validTo < now || cert.validFrom > now)
    throw unauthenticated('is signed by an expired certificate');
  if (!SYSTEM_KINDS.includes(iss) || !cert.kinds.includes(iss)) {
    throw denied(`claims a system principal, which only ${SYSTEM_KINDS.join(' and ')} may act as`);
  }
  return cert.publicKey;
}

function signatureHolds(grant: common.ContextGrant, key: KeyObject): boolean {
  try {
    return verify(algorithmOf(key), grant.claims, key, grant.signature);
  } catch {
    return false;
  }
}

/** The principals of a client link: its holder is a customer, not a member. */
const LINK_PRINCIPALS: readonly string[] = ['client_page_link', 'customer_link'];

/**
 * A client link is signed by the gateway before anyone knows its tenant (the link names it, and
 * only the service that issued it can verify it): the grant names the platform tenant and a link
 * principal. The verifying service forwards it for the link's tenant, as a link principal and
 * nothing more (docs/security.md, "What is not covered yet").
 */
function linkDelegation(claims: Claims, ctx: RequestContext): boolean {
  const principal = ctx.principal;
  return (
    claims.tenant.id === PLATFORM_TENANT &&
    LINK_PRINCIPALS.includes(claims.principal.kind) &&
    principal !== undefined &&
    LINK_PRINCIPALS.includes(principal.kind) &&
    principal.role === 'customer' &&
    principal.memberId === ''
  );
}

const same = (a: object | undefined, b: object): boolean =>
  a !== undefined && Object.entries(b).every(([key, value]) => (a as Record<string, unknown>)[key] === value);

/**
 * Refuses a context that is unsigned, forged, expired, or names another request, tenant or
 * principal than its grant (invalid_token: UNAUTHENTICATED; role_denied: PERMISSION_DENIED).
 */
export function verifyContext(ctx: RequestContext, trust: LoadedTrust, now = Date.now()): void {
  const grant = ctx.grant;
  if (!grant || grant.claims.length === 0) throw unauthenticated('is not signed');
  const claims = parseClaims(grant.claims);
  const system = claims.iss !== GATEWAY_ISSUER;
  const key = system ? systemSigner(grant, trust, claims.iss) : trust.contextKey;
  if (!signatureHolds(grant, key)) throw unauthenticated('carries a signature that does not verify');
  if (!(claims.exp > now) || claims.exp > now + GRANT_TTL_MS + SKEW_MS) throw unauthenticated('has expired');
  if (system !== isSystem(ctx) || (system && claims.principal?.kind !== 'system')) {
    throw denied('names a principal its signer may not vouch for');
  }
  // Compared as signed: an absent tenant or principal is signed as one of empty fields.
  const sent = claimsOf(ctx, claims.iss, now);
  const asSigned = same(sent.tenant, claims.tenant) && same(sent.principal, claims.principal);
  if (claims.requestId !== ctx.requestId || !(asSigned || linkDelegation(claims, ctx))) {
    throw denied('names another request, tenant or principal than the one signed for it');
  }
}
