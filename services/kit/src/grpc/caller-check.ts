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
import type { LoadedTrust } from './trust.ts';

/** The kinds the caller's client certificate names (none without one). */
export function callerKinds(call: ServerUnaryCall<unknown, unknown>): string[] {
  const auth = call.getAuthContext();
  return kindsOfSubjectAltName(auth.sslPeerCertificate?.subjectaltname);
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
