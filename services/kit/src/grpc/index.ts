// @fieldops/kit/grpc: the gRPC client, the server and the binding of a domain's handlers to a service.
export { callUnary, connectClient, setProcessGrpcDeadline } from './client.ts';
export type { ConnectOptions, UnaryMethodName } from './client.ts';
export { bindDomain, handlersOf } from './domain-binding.ts';
export type { DomainFunctions, DomainHandlers } from './domain-binding.ts';
export { connectHealthClient, peerServes, registerPeerChecks } from './health-service.ts';
export { listenOf, startGrpcServer } from './server.ts';
export type { GrpcListen, GrpcServer, GrpcServiceBinding } from './server.ts';
export { CALLERS, PROCESS_KINDS, RESERVED_SERVICES, SYSTEM_KINDS } from './callers.gen.ts';
export { grantedContext, GRANT_TTL_MS } from './context-grant.ts';
export { currentTrust, hasProcessTrust, loadTrust, setProcessTrust, trustFromEnv } from './trust.ts';
export type { InternalTrust, LoadedTrust } from './trust.ts';
