// The shared write path: every service applies every write through runWrite.
export { runWrite, MAX_PLAN_RERUNS } from './keyed-write.js';
export type { WriteOutcome, WritePlan, WriteSpec } from './keyed-write.js';
export {
  IDEMPOTENCY_COLLECTION,
  idempotencyCollectionSpec,
  findIdempotencyRecord,
} from './idempotency-record.js';
export type { IdempotencyRecord } from './idempotency-record.js';
export { canonicalJson, fingerprintHash } from './fingerprint.js';
export { requireTenantId } from './tenant.js';
export { outcomeWriteRpcOf, withContextTenant, withPlanArg, writeRpc, writeRpcOf } from './write-rpc.js';
export type { TenantPlan, TenantWriteSpec, WriteAnswer, WriteDeps, WriteRpc } from './write-rpc.js';
