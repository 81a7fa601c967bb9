// The CaptureService and RunLeaseService RPCs as plain async functions of (request, ctx). The
// gRPC binding is one line each (server.ts); tests call the same functions directly.
import type { DomainHandlers } from '@fieldops/kit/grpc';
import type { capture, runLeases } from '@fieldops/proto';
import type { CaptureDeps } from './deps.js';
import type { RunLeases } from './worker/run-leases.port.js';
import { createDesign, getDesign, listDesigns, sealDesign } from './designs/designs.service.js';
import {
  claimRun,
  completeRun,
  failRun,
  listActiveRuns,
  releaseRun,
  renewLease,
  trackRun,
} from './runs/run-leases.service.js';
import { getRun, processProject } from './runs/runs.service.js';
import {
  getArtifact,
  getScene,
  getSceneGeometry,
  listExportFormats,
  listScenes,
} from './scenes/scenes.service.js';
import {
  abortCapture,
  finalizeCapture,
  getCapture,
  listCaptures,
  presignCapture,
} from './sessions/sessions.service.js';

export type CaptureHandlers = DomainHandlers<capture.CaptureServiceService>;

export function createCaptureHandlers(deps: CaptureDeps): CaptureHandlers {
  return {
    presignCapture: (request, ctx) => presignCapture(deps, request, ctx),
    finalizeCapture: (request, ctx) => finalizeCapture(deps, request, ctx),
    abortCapture: (request, ctx) => abortCapture(deps, request, ctx),
    getCapture: (request, ctx) => getCapture(deps, request, ctx),
    listCaptures: (request, ctx) => listCaptures(deps, request, ctx),
    processProject: (request, ctx) => processProject(deps, request, ctx),
    getRun: (request, ctx) => getRun(deps, request, ctx),
    listScenes: (request, ctx) => listScenes(deps, request, ctx),
    getScene: (request, ctx) => getScene(deps, request, ctx),
    getSceneGeometry: (request, ctx) => getSceneGeometry(deps, request, ctx),
    getArtifact: (request, ctx) => getArtifact(deps, request, ctx),
    listExportFormats: (request, ctx) => listExportFormats(deps, request, ctx),
    createDesign: (request, ctx) => createDesign(deps, request, ctx),
    listDesigns: (request, ctx) => listDesigns(deps, request, ctx),
    getDesign: (request, ctx) => getDesign(deps, request, ctx),
    sealDesign: (request, ctx) => sealDesign(deps, request, ctx),
  };
}

export type RunLeaseHandlers = DomainHandlers<runLeases.RunLeaseServiceService>;

/** What worker processes call instead of opening capture's store; `leases` holds the rules. */
export function createRunLeaseHandlers(leases: RunLeases): RunLeaseHandlers {
  return {
    trackRun: (request, ctx) => trackRun(leases, request, ctx),
    listActiveRuns: (request, ctx) => listActiveRuns(leases, request, ctx),
    claimRun: (request, ctx) => claimRun(leases, request, ctx),
    renewLease: (request, ctx) => renewLease(leases, request, ctx),
    completeRun: (request, ctx) => completeRun(leases, request, ctx),
    failRun: (request, ctx) => failRun(leases, request, ctx),
    releaseRun: (request, ctx) => releaseRun(leases, request, ctx),
  };
}
