// @fieldops/kit/testing: what service tests share: two tenants, a test context, refusals, paging
// both ways and waiting for outbox events, a slow gRPC server that shows a client's deadline, and
// an upload's answer or the connection its server closed mid-body.
export { answerOrClosed } from './closed-mid-body.ts';
export { pagesBothWays } from './json-page.ts';
export { TENANT_A, TENANT_B, eventually, outboxEvents, refusal, testContext } from './service-test.ts';
export { outcomeOf, startSlowGrpcServer } from './slow-grpc-server.ts';
export type { CallOutcome, SlowGrpcServer } from './slow-grpc-server.ts';
