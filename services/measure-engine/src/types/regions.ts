// Regions and what is measured in them: the engine's measuring input.
// Part of the engine's types (see ../types.ts). Canonical SI: metres, square metres, cubic metres, tonnes;
// units are UCUM codes ('m', 'm2', 'm3', 't').

import type { CaptureAccuracy } from './capture-accuracy.ts';
import type { ByteSource, LinearUnit } from './points.ts';

/** [x, y] in the same coordinate reference system (and units) as the point cloud. */
export type XY = readonly [number, number];

/**
 * The surface a region is measured against.
 * - 'fitted-plane': a plane fitted by robust least squares to the captured surface sampled along
 *   the region's boundary (a stockpile on its pad, a pit in its surroundings). Default.
 * - 'elevation': a fixed level (design grade, a datum), in the file's vertical units.
 */
export type BaseSpec = { readonly kind: 'fitted-plane' } | { readonly kind: 'elevation'; readonly z: number };

export interface RegionInput {
  readonly id: string;
  readonly name?: string;
  /** Simple polygon, open or closed, either orientation, at most MAX_REGION_VERTICES vertices. */
  readonly polygon: readonly XY[];
  /** Key of the material table; tonnage is reported when a material or a density is given. */
  readonly material?: string;
  /** Bulk density in t/m³ measured by the operator; overrides the material table. */
  readonly densityTPerM3?: number;
  readonly base?: BaseSpec;
}

/** The per-cell statistic of the gridded surface. */
export type CellStatistic = 'mean' | 'min' | 'max';

export interface MeasureInput {
  readonly source: ByteSource;
  readonly regions: readonly RegionInput[];
  readonly accuracy: CaptureAccuracy;
  /** Grid cell size in metres; chosen from point density when absent. */
  readonly cellSizeM?: number;
  /** Default 'mean'; 'min' approximates bare ground in unclassified clouds. */
  readonly statistic?: CellStatistic;
  /** Overrides of the units found in (or missing from) the file. */
  readonly units?: { readonly horizontal?: LinearUnit; readonly vertical?: LinearUnit };
  readonly signal?: AbortSignal;
}
