// When a worker records a run's quantities and the customer has stated regions, the run's stored
// cloud is measured with them before the record is written, so that measuring the newest capture
// uses the stated regions. A region the capture cannot measure (outside it, on no ground) does not
// lose the run: the automatic measurement is recorded with a disclosure that names why.
import type { BlobStore } from '@fieldops/kit/blobs';
import { AppError } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import type { measurements } from '@fieldops/proto';
import { currentRegionSet } from '../regions/regions.service.ts';
import { measureStated } from './stated-measure.ts';

export type StatedOutcome =
  | { regionVersion: number; quantities: measurements.SiteQuantities }
  | { regionVersion: number; failure: string };

export async function statedOnRecord(
  store: DocumentStore,
  blobs: BlobStore | undefined,
  tenantId: string,
  req: measurements.RecordQuantitiesRequest,
  automatic: measurements.SiteQuantities,
): Promise<StatedOutcome | null> {
  if (!blobs || req.files.length === 0) return null;
  const set = await currentRegionSet(store, tenantId, req.projectId);
  if (set.regions.length === 0) return null;
  try {
    const quantities = await measureStated(blobs, tenantId, req.files, set.regions, automatic);
    return { regionVersion: set.version, quantities };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return {
      regionVersion: set.version,
      failure: `The stated regions (version ${set.version}) could not be measured on this capture: ${error.message}`,
    };
  }
}
