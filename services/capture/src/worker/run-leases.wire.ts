// The RunLeases port's values as RunLeaseService messages and back: shared by the client
// (run-leases.grpc.ts) and capture's handlers (runs/run-leases.handlers.ts), so both ends read the
// wire the same way. The tenant never travels in a message: it is the call context's.
import { AppError } from '@fieldops/kit';
import type { runLeases } from '@fieldops/proto';
import type { EngineFrame, EngineResult } from './engine.port.ts';
import {
  SKIP_REASONS,
  type ClaimOutcome,
  type ClaimedRun,
  type HeldRun,
  type RunResult,
  type SkipReason,
} from './run-leases.port.ts';

type SceneKind = EngineResult['scene']['kind'];
const SCENE_KINDS: readonly SceneKind[] = ['point-cloud', 'surface', 'orthomosaic', 'model'];

export const heldToWire = ({ runId, owner, version }: HeldRun): runLeases.HeldRun => ({
  runId,
  owner,
  version,
});

export function heldFromWire(tenantId: string, held: runLeases.HeldRun | undefined): HeldRun {
  if (!held?.runId) throw new AppError('field_required', 'The call names no held run (held.run_id).');
  return { tenantId, runId: held.runId, owner: held.owner, version: held.version };
}

export function claimToWire(outcome: ClaimOutcome): runLeases.ClaimRunResult {
  if ('skipped' in outcome) return { skipped: outcome.skipped };
  const { held, structureSpanM, ...rest } = outcome.claimed;
  return {
    skipped: '',
    claimed: {
      ...rest,
      held: heldToWire(held),
      ...(structureSpanM !== undefined ? { structureSpanM } : {}),
    },
  };
}

export function claimFromWire(tenantId: string, result: runLeases.ClaimRunResult): ClaimOutcome {
  const claimed = result.claimed;
  if (!claimed) return { skipped: skipReason(result.skipped) };
  const { held, structureSpanM, frames, ...rest } = claimed;
  const run: ClaimedRun = {
    ...rest,
    held: heldFromWire(tenantId, held),
    frames: frames.map((frame) => ({ ...frame, key: frame.key as EngineFrame['key'] })),
    ...(structureSpanM !== undefined ? { structureSpanM } : {}),
  };
  return { claimed: run };
}

function skipReason(value: string): SkipReason {
  const reason = SKIP_REASONS.find((known) => known === value);
  if (!reason) throw new AppError('internal', `capture answered an unknown claim outcome "${value}".`);
  return reason;
}

export function resultToWire(held: HeldRun, result: RunResult): runLeases.CompleteRunRequest {
  const { kind, pointCount, bounds, formats } = result.scene;
  return {
    held: heldToWire(held),
    kind,
    pointCount,
    formats,
    artifacts: result.artifacts,
    ...(bounds ? { bounds } : {}),
    ...(result.reconstruction ? { reconstruction: result.reconstruction } : {}),
  };
}

export function resultFromWire(request: runLeases.CompleteRunRequest): RunResult {
  const kind = SCENE_KINDS.find((known) => known === request.kind);
  if (!kind) {
    throw new AppError('field_invalid_enum', `A scene's kind is one of ${SCENE_KINDS.join(', ')}.`, {
      field: 'kind',
    });
  }
  const { pointCount, bounds, formats } = request;
  return {
    scene: { kind, pointCount, formats, ...(bounds ? { bounds } : {}) },
    artifacts: request.artifacts.map((artifact) => ({
      ...artifact,
      key: artifact.key as EngineFrame['key'],
    })),
    ...(request.reconstruction ? { reconstruction: request.reconstruction } : {}),
  };
}
