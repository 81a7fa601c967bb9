// @fieldops/kit/grpc: the gRPC client, the server and the binding of a domain's handlers to a service.
export { callUnary, connectClient, setProcessGrpcDeadline } from './client.js';
export type { ConnectOptions, UnaryMethodName } from './client.js';
export { bindDomain, handlersOf } from './domain-binding.js';
export type { DomainFunctions, DomainHandlers } from './domain-binding.js';
export { listenOf, startGrpcServer } from './server.js';
export type { GrpcListen, GrpcServer, GrpcServiceBinding } from './server.js';
