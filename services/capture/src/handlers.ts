// The CaptureService and RunLeaseService RPCs as plain async functions of (request, ctx), derived
// from the service modules (handlersOf): the gRPC binding is one line each (server.ts); tests call
// the same functions directly.
import { handlersOf, type DomainHandlers } from '@fieldops/kit/grpc';
import { capture, runLeases } from '@fieldops/proto';
import type { CaptureDeps } from './deps.ts';
import type { RunLeases } from './worker/run-leases.port.ts';
import * as designs from './designs/designs.service.ts';
import * as leases from './runs/run-leases.service.ts';
import * as runs from './runs/runs.service.ts';
import * as scenes from './scenes/scenes.service.ts';
import * as sessions from './sessions/sessions.service.ts';

export type CaptureHandlers = DomainHandlers<capture.CaptureServiceService>;

/** Each CaptureService RPC is the service function of its name (sessions, runs, scenes, designs). */
export function createCaptureHandlers(deps: CaptureDeps): CaptureHandlers {
  return handlersOf(capture.CaptureServiceService, deps, { ...sessions, ...runs, ...scenes, ...designs });
}

export type RunLeaseHandlers = DomainHandlers<runLeases.RunLeaseServiceService>;

/** What worker processes call instead of opening capture's store; `leases` holds the rules. */
export function createRunLeaseHandlers(rules: RunLeases): RunLeaseHandlers {
  return handlersOf(runLeases.RunLeaseServiceService, rules, leases);
}
