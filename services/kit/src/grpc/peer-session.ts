// The HTTP/2 session (one TLS connection) a server call arrived on. grpc-js's public
// `getAuthContext()` asks the socket for its peer certificate on every call, and Node builds the
// whole certificate object each time (fingerprints included): about 85 µs of the main thread per
// internal call, the largest cost of a hop after the context signature. A session's peer
// certificate cannot change (Node forbids TLS renegotiation on HTTP/2 connections), so what it
// names is read once per session (caller-check.ts). grpc-js has no public way from a call to its
// session; this follows its internal references and answers undefined when they are not there,
// in which case the caller is read from the certificate on every call, as before. The kit's
// grpc test fails when that happens, so a grpc-js upgrade that moves them is seen.

interface InternalCall {
  call?: InternalCall;
  nextCall?: InternalCall;
  stream?: { session?: object };
}

/** The call's HTTP/2 session, or undefined when grpc-js does not lead to it. */
export function peerSession(call: object): object | undefined {
  // ServerUnaryCallImpl.call → ServerInterceptingCall (one per interceptor, through nextCall) →
  // BaseServerInterceptingCall.stream → Http2Stream.session.
  let step = (call as InternalCall).call;
  for (let depth = 0; step?.nextCall && depth < 16; depth++) step = step.nextCall;
  const session = step?.stream?.session;
  return typeof session === 'object' && session !== null ? session : undefined;
}
