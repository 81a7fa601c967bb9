// @fieldops/kit/testing: what service tests share: two tenants, a test context, refusals, paging
// both ways and waiting for outbox events.
export { pagesBothWays } from './json-page.js';
export { TENANT_A, TENANT_B, eventually, outboxEvents, refusal, testContext } from './service-test.js';
