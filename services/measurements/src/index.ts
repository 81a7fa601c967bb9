// The measurements domain: quantity snapshots and takeoffs on the store it owns, and the built-in
// measurement engine the reconstruction workers call.
import type { BlobStore } from '@fieldops/kit/blobs';
import type { DocumentStore } from '@fieldops/kit/store';
import { defineMeasurementCollections } from './collections.ts';
import { createMeasurementHandlers, type MeasurementHandlers } from './handlers.ts';
import type { ProjectsPort } from './projects/projects.port.ts';

export async function openMeasurementsDomain(options: {
  store: DocumentStore;
  projects: ProjectsPort;
  blobs?: BlobStore;
}): Promise<MeasurementHandlers> {
  await defineMeasurementCollections(options.store);
  return createMeasurementHandlers(options.store, options.projects, options.blobs);
}

export { createMeasurementHandlers } from './handlers.ts';
export type { MeasurementHandlers } from './handlers.ts';
export type { ProjectsPort } from './projects/projects.port.ts';
export { MEASUREMENT_COLLECTIONS } from './collections.ts';
export { quantitiesMessage, volumeFiguresMessage } from '@fieldops/measure-engine';
export { measureRegions } from '@fieldops/measure-engine';
