// The MeasurementService RPCs as plain async functions of (request, ctx). The gRPC binding is one
// line (server.ts); tests call the same functions directly.
import type { BlobStore } from '@fieldops/kit/blobs';
import type { DomainHandlers } from '@fieldops/kit/grpc';
import type { DocumentStore } from '@fieldops/kit/store';
import type { measurements } from '@fieldops/proto';
import type { ProjectsPort } from './projects/projects.port.js';
import { measureCapture } from './quantities/measure-capture.service.js';
import { getQuantities, recordQuantities } from './quantities/quantities.service.js';
import { getTakeoff, getTakeoffDelta, listTakeoffs, recordTakeoff } from './takeoffs/takeoffs.service.js';

export type MeasurementHandlers = DomainHandlers<measurements.MeasurementServiceService>;

/** The blob store holds the capture files MeasureCapture reads; without one that RPC is unavailable. */
export function createMeasurementHandlers(
  store: DocumentStore,
  projects: ProjectsPort,
  blobs?: BlobStore,
): MeasurementHandlers {
  return {
    recordQuantities: (request, ctx) => recordQuantities(store, projects, request, ctx),
    measureCapture: (request, ctx) => measureCapture(store, projects, blobs, request, ctx),
    getQuantities: (request, ctx) => getQuantities(store, projects, request, ctx),
    recordTakeoff: (request, ctx) => recordTakeoff(store, projects, request, ctx),
    listTakeoffs: (request, ctx) => listTakeoffs(store, projects, request, ctx),
    getTakeoff: (request, ctx) => getTakeoff(store, projects, request, ctx),
    getTakeoffDelta: (request, ctx) => getTakeoffDelta(store, projects, request, ctx),
  };
}
