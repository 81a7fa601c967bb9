// Who may call a method: the caller's certificate names its kinds (mTLS, checked by the TLS layer
// against the CA); one of them must be a kind that dials the method's service (callers.gen.ts,
// from topology.yaml: the table the NetworkPolicies are rendered from too), and for a reserved
// service one of the kinds it names. Then the request context must verify (context-grant.ts).
import type { ServerUnaryCall } from '@grpc/grpc-js';
import type { RequestContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { CALLERS, RESERVED_SERVICES } from './callers.gen.ts';
import { verifyContext } from './context-grant.ts';
import { kindOfService, kindsOfSubjectAltName, serviceOfPath } from './identity.ts';
import { peerSession } from './peer-session.ts';
import type { LoadedTrust } from './trust.ts';

/** What each connection's client certificate names, read on its first call (peer-session.ts). */
const kindsOfSession = new WeakMap<object, readonly string[]>();

/** The kinds the caller's client certificate names (none without one). */
export function callerKinds(call: ServerUnaryCall<unknown, unknown>): readonly string[] {
  const session = peerSession(call);
  const known = session && kindsOfSession.get(session);
  if (known) return known;
  const kinds = Object.freeze(
    kindsOfSubjectAltName(call.getAuthContext().sslPeerCertificate?.subjectaltname),
  );
  if (session) kindsOfSession.set(session, kinds);
  return kinds;
}

/** The kinds allowed to call `path`. */
export function allowedCallers(path: string): readonly string[] {
  const service = serviceOfPath(path);
  return RESERVED_SERVICES[service] ?? CALLERS[kindOfService(service) ?? ''] ?? [];
}

/** Refuses a caller the table does not allow, then a context that does not verify. */
export function checkCall(
  path: string,
  caller: readonly string[],
  ctx: RequestContext,
  trust: LoadedTrust,
): void {
  if (caller.length === 0) {
    throw new AppError('no_credential', 'The call carries no internal client certificate.');
  }
  const allowed = allowedCallers(path);
  if (!caller.some((kind) => allowed.includes(kind))) {
    throw new AppError(
      'role_denied',
      `${caller.join(', ')} may not call ${serviceOfPath(path)}; its callers are ${allowed.join(', ') || 'none'}.`,
    );
  }
  verifyContext(ctx, trust);
}
