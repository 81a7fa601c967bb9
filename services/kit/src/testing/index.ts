// @fieldops/kit/testing: what service tests share: two tenants, a test context, refusals, paging
// both ways and waiting for outbox events, and a slow gRPC server that shows a client's deadline.
export { pagesBothWays } from './json-page.ts';
export { TENANT_A, TENANT_B, eventually, outboxEvents, refusal, testContext } from './service-test.ts';
export { outcomeOf, startSlowGrpcServer } from './slow-grpc-server.ts';
export type { CallOutcome, SlowGrpcServer } from './slow-grpc-server.ts';
