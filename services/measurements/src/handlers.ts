// The MeasurementService RPCs as plain async functions of (request, ctx), derived from the service
// modules (handlersOf): each RPC is the exported function of its name, given the service's deps.
// A new RPC needs only its function in one of these modules. The gRPC binding is one line
// (server.ts); tests call the same functions directly.
import type { BlobStore } from '@fieldops/kit/blobs';
import { handlersOf, type DomainHandlers } from '@fieldops/kit/grpc';
import type { DocumentStore } from '@fieldops/kit/store';
import { measurements } from '@fieldops/proto';
import type { ProjectsPort } from './projects/projects.port.ts';
import * as measureCapture from './quantities/measure-capture.service.ts';
import * as quantities from './quantities/quantities.service.ts';
import * as takeoffs from './takeoffs/takeoffs.service.ts';
import * as remeasure from './quantities/remeasure.service.ts';
import * as regions from './regions/regions.service.ts';

export type MeasurementHandlers = DomainHandlers<measurements.MeasurementServiceService>;

/** The blob store holds the capture files MeasureCapture reads; without one that RPC is unavailable. */
export function createMeasurementHandlers(
  store: DocumentStore,
  projects: ProjectsPort,
  blobs?: BlobStore,
): MeasurementHandlers {
  return handlersOf(
    measurements.MeasurementServiceService,
    { store, projects, ...(blobs ? { blobs } : {}) },
    { ...quantities, ...measureCapture, ...remeasure, ...regions, ...takeoffs },
  );
}
