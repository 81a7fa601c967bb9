// The shared write path: every service applies every write through runWrite.
export { runWrite, unchangedPlan, MAX_PLAN_RERUNS } from './keyed-write.ts';
export type { WriteOutcome, WritePlan, WriteSpec } from './keyed-write.ts';
export {
  IDEMPOTENCY_COLLECTION,
  idempotencyCollectionSpec,
  findIdempotencyRecord,
} from './idempotency-record.ts';
export type { IdempotencyRecord } from './idempotency-record.ts';
export { canonicalJson, fingerprintHash } from './fingerprint.ts';
export { requireMemberId, requireTenantId } from './tenant.ts';
export {
  outcomeWriteRpcOf,
  projectWriteRpcOf,
  withContextTenant,
  withPlanArg,
  writeRpc,
  writeRpcOf,
} from './write-rpc.ts';
export type {
  ProjectGate,
  TenantPlan,
  TenantWriteSpec,
  WriteAnswer,
  WriteDeps,
  WriteRpc,
} from './write-rpc.ts';
