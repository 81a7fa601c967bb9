// Field limits of every resource a request writes or filters, as data, one file per domain: the
// gateway's zod schemas read them (so OpenAPI states them and an over-long field is refused before
// any call), and the owning service checks them again on its write path (checkLengths and
// checkCounts in @fieldops/kit/domain/fields), so a direct gRPC call meets the same rule with the
// same error (field_too_long naming the field). Limits of other kinds stay with their owner:
// upload bytes in CAPTURE_LIMITS (../capture.ts), a permit value in MAX_PERMIT_VALUE_LENGTH
// (../permit-keys.ts), page sizes, idempotency keys and headers in gateway/src/limits.ts, engine
// budgets in services/measure-engine.
export * from './shared.ts';
export * from './crm.ts';
export * from './projects.ts';
export * from './planning.ts';
export * from './capture.ts';
export * from './webhooks.ts';
export * from './reports.ts';
export * from './reads.ts';
export * from './measurements.ts';
