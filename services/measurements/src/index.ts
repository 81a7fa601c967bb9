// The measurements domain: quantity snapshots and takeoffs on the store it owns, and the built-in
// measurement engine the reconstruction workers call.
import type { BlobStore } from '@fieldops/kit/blobs';
import type { DocumentStore } from '@fieldops/kit/store';
import { defineMeasurementCollections } from './collections.js';
import { createMeasurementHandlers, type MeasurementHandlers } from './handlers.js';
import type { ProjectsPort } from './projects/projects.port.js';

export async function openMeasurementsDomain(options: {
  store: DocumentStore;
  projects: ProjectsPort;
  blobs?: BlobStore;
}): Promise<MeasurementHandlers> {
  await defineMeasurementCollections(options.store);
  return createMeasurementHandlers(options.store, options.projects, options.blobs);
}

export { createMeasurementHandlers } from './handlers.js';
export type { MeasurementHandlers } from './handlers.js';
export type { ProjectsPort } from './projects/projects.port.js';
export { MEASUREMENT_COLLECTIONS } from './collections.js';
export { quantitiesMessage, volumeFiguresMessage } from '@fieldops/measure-engine';
export { measureRegions } from '@fieldops/measure-engine';
