// The base surfaces a customer can state for a region (PUT /projects/:id/regions): the two the
// engine's RegionInput names (a plane fitted to the toe, a fixed elevation) and the two read off
// the toe itself (quantities/toe-bases.ts: triangulated between the toe's vertices, the lowest
// point on the toe). A region stated with any of them is measured by measureRegions.
import type { RegionBase } from './quantities/region-volume.ts';
import type { ToeBaseKind } from './quantities/toe-bases.ts';
import type { BaseSpec, RegionInput } from './types.ts';

export type StatedBaseSpec = BaseSpec | { readonly kind: ToeBaseKind };

/** A region whose base may be any of the four. */
export type StatedRegionInput = Omit<RegionInput, 'base'> & { readonly base?: StatedBaseSpec };

/** The base in metres: an elevation is given in the file's vertical units. */
export function regionBaseOf(region: RegionInput | StatedRegionInput, verticalMetres: number): RegionBase {
  const base = region.base;
  if (!base) return { kind: 'fitted-plane' };
  return base.kind === 'elevation' ? { kind: 'elevation', z: base.z * verticalMetres } : { kind: base.kind };
}
