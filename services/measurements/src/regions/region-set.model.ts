// A project's stated measurement regions as stored: one document per project holding the newest
// version (its store version is the region version, so its etag is the one If-Match names), and
// one document per version kept as stated, so a snapshot's regionVersion can always be read back.
import { etagOf } from '@fieldops/kit/domain';
import type { Doc } from '@fieldops/kit/store';
import type { measurements } from '@fieldops/proto';

export interface StatedRegionDoc {
  id: string;
  name: string;
  polygon: { lat: number; lng: number }[];
  base: string;
  baseElevationM?: number;
  material?: string;
  densityTPerM3?: number;
}

/** The newest version (id `rgs_<projectId>`, version = region version). */
export interface RegionSetDoc extends Doc {
  projectId: string;
  regions: StatedRegionDoc[];
  statedAt: string;
}

/** One stated version, kept as it was. */
export interface RegionVersionDoc extends Doc {
  projectId: string;
  regionVersion: number;
  regions: StatedRegionDoc[];
  statedAt: string;
}

export const regionSetId = (projectId: string): string => `rgs_${projectId}`;

/** What a project that never stated regions has: version 0, nothing stated. */
export const noRegions = (projectId: string, tenantId: string): RegionSetDoc => ({
  id: regionSetId(projectId),
  tenantId,
  version: 0,
  projectId,
  regions: [],
  statedAt: '',
});

export const toRegionSet = (doc: RegionSetDoc): measurements.RegionSet => ({
  projectId: doc.projectId,
  version: doc.version,
  etag: etagOf(doc),
  regions: doc.regions.map((r) => ({ ...r })),
  statedAt: doc.statedAt,
});
