// @fieldops/kit/grpc: the gRPC client, the server and the binding of a domain's handlers to a service.
export { callUnary, connectClient, setProcessGrpcDeadline } from './client.js';
export type { ConnectOptions, UnaryMethodName } from './client.js';
export { bindDomain, handlersOf } from './domain-binding.js';
export type { DomainFunctions, DomainHandlers } from './domain-binding.js';
export { connectHealthClient, peerServes, registerPeerChecks } from './health-service.js';
export { listenOf, startGrpcServer } from './server.js';
export type { GrpcListen, GrpcServer, GrpcServiceBinding } from './server.js';
export { CALLERS, PROCESS_KINDS, RESERVED_SERVICES, SYSTEM_KINDS } from './callers.gen.js';
export { grantedContext, GRANT_TTL_MS } from './context-grant.js';
export { currentTrust, hasProcessTrust, loadTrust, setProcessTrust, trustFromEnv } from './trust.js';
export type { InternalTrust, LoadedTrust } from './trust.js';
