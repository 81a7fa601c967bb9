// runWrite: the one way a service applies a write. It makes the write exactly-once by
// idempotency key, rehearsable (dry run) and atomic with its outbox event, so no service has to
// get those three right on its own.
import type { common } from '@fieldops/proto';
import type { RequestContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { StoreConflict } from '../store/port.ts';
import type { DocumentStore, WriteOp } from '../store/port.ts';
import { fingerprintHash } from './fingerprint.ts';
import { findIdempotencyRecord, insertIdempotencyRecord } from './idempotency-record.ts';
import type { IdempotencyRecord } from './idempotency-record.ts';
import { requireTenantId } from './tenant.ts';

/** What a write would do, computed from the state it read. Planning never writes. */
export interface WritePlan<R> {
  /** The domain change and its outbox events, committed together. Empty when nothing changes. */
  ops: WriteOp[];
  /** The answer to the caller (and, with a key, the snapshot a replay answers). */
  result: R;
  /** The write created the resource: the gateway answers 201 instead of 200. */
  created: boolean;
  /** The dry-run answer: a sentence and every create/update/event with its field changes. */
  rehearsal: common.Rehearsal;
  /** Lead capture answered with an existing open lead instead of creating one. */
  deduped?: boolean;
  /** The target state was already reached, so nothing changes (spec: replayed true). */
  replayed?: boolean;
}

/**
 * The plan of a write whose change is already made (spec: a destination already reached answers
 * replayed: true): it stores and emits nothing and answers `result` as it stands; `willDo` says why.
 */
export function unchangedPlan<R>(result: R, willDo: string): WritePlan<R> {
  return { ops: [], result, created: false, replayed: true, rehearsal: { willDo, effects: [] } };
}

export interface WriteSpec<R> {
  /** Registry operation id (createLead ...): a key reused for another operation is refused. */
  operation: string;
  /** The request as sent; only its hash is stored. */
  fingerprint: unknown;
  /** Reads the current state and returns the plan; re-run when the state moved under it. */
  plan: () => Promise<WritePlan<R>>;
}

export interface WriteOutcome<R> {
  result: R;
  meta: common.WriteMeta;
}

/** How many times a plan is re-run after the state it read changed before the commit. */
export const MAX_PLAN_RERUNS = 3;

export async function runWrite<R>(
  store: DocumentStore,
  ctx: RequestContext,
  spec: WriteSpec<R>,
): Promise<WriteOutcome<R>> {
  const tenantId = requireTenantId(ctx);
  const key = ctx.idempotencyKey;
  const fingerprint = fingerprintHash(withoutKey(spec.fingerprint));
  const credential = ctx.principal?.tokenId ?? '';
  const matches = (record: IdempotencyRecord): WriteOutcome<R> =>
    replayOf<R>(record, spec.operation, fingerprint, ctx.dryRun, credential);

  if (key) {
    const earlier = await findIdempotencyRecord(store, tenantId, key);
    if (earlier) return matches(earlier);
  }
  if (ctx.dryRun) return rehearsed(await spec.plan());

  for (let reruns = 0; ; reruns++) {
    const plan = await spec.plan();
    const record = key
      ? [
          insertIdempotencyRecord({
            tenantId,
            key,
            operation: spec.operation,
            fingerprint,
            ...snapshotOf(plan),
            requestId: ctx.requestId,
            tokenId: credential,
          }),
        ]
      : [];
    const ops = [...plan.ops, ...record];
    try {
      if (ops.length > 0) await store.commit(tenantId, ops);
      return { result: plan.result, meta: metaOf(plan) };
    } catch (error) {
      if (!(error instanceof StoreConflict)) throw error;
      // A concurrent call with the same key may have won; whichever unique key the adapter
      // checked first, the winner's record is what this call must answer.
      const winner = key ? await findIdempotencyRecord(store, tenantId, key) : null;
      if (winner) return matches(winner);
      // Otherwise the state the plan read moved (version, missing, or a domain unique key taken
      // by a racing write): plan again on fresh state, which may dedupe, refuse or succeed.
      if (reruns >= MAX_PLAN_RERUNS) throw retriesExhausted(error);
    }
  }
}

function snapshotOf<R>(plan: WritePlan<R>): { result: R; deduped: boolean } {
  return { result: plan.result, deduped: plan.deduped ?? false };
}

function metaOf<R>(plan: WritePlan<R>): common.WriteMeta {
  return {
    replayed: plan.replayed ?? false,
    deduped: plan.deduped ?? false,
    created: plan.created,
    rehearsal: undefined,
  };
}

/** A dry run: the would-be result and the rehearsal; nothing was created, so created is false. */
function rehearsed<R>(plan: WritePlan<R>): WriteOutcome<R> {
  return {
    result: plan.result,
    meta: { ...metaOf(plan), created: false, rehearsal: plan.rehearsal },
  };
}

function replayOf<R>(
  record: IdempotencyRecord,
  operation: string,
  fingerprint: string,
  dryRun: boolean,
  credential: string,
): WriteOutcome<R> {
  // The original answer may hold what another credential cannot read (another project, another
  // member's report): it is replayed to the credential that wrote it only. Records written before
  // the credential was kept ('' ) and system writes replay as before. docs/decisions.md, Idempotency.
  if (record.tokenId && credential && record.tokenId !== credential) throw keyOfAnotherCredential();
  if (record.operation !== operation || record.fingerprint !== fingerprint) throw keyReused();
  const rehearsal = dryRun ? { willDo: REPLAY_WILL_DO, effects: [] } : undefined;
  return {
    // The stored snapshot is the result the first call answered; its type is that call's R.
    result: record.result as R,
    meta: { replayed: true, deduped: record.deduped, created: false, rehearsal },
  };
}

const REPLAY_WILL_DO =
  'Answer with the result of the earlier write that used this idempotency key; nothing new would be stored.';

const keyReused = (): AppError =>
  new AppError(
    'field_invalid',
    'This idempotency key was already used for a different request; send a new opId (or Idempotency-Key) for a new write, or resend the original request unchanged to get its result.',
    { field: 'opId' },
  );

const keyOfAnotherCredential = (): AppError =>
  new AppError(
    'field_invalid',
    'This idempotency key was already used by another credential, and its result is replayed only to that credential; send a new opId (or Idempotency-Key) for your own write.',
    { field: 'opId' },
  );

const retriesExhausted = (cause: StoreConflict): AppError =>
  new AppError(
    'conflict',
    'The record kept changing while this write was being applied; read it again and retry.',
    {},
    { cause },
  );

/**
 * The key is how a request names itself, not part of what it asks for: `{name, opId: k}` and
 * `{name}` sent with `Idempotency-Key: k` are the same request.
 */
function withoutKey(request: unknown): unknown {
  if (request === null || typeof request !== 'object' || !('opId' in request)) return request;
  const { opId: _key, ...rest } = request as Record<string, unknown>;
  return rest;
}
