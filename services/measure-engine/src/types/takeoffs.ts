// Takeoffs (spec resource Takeoff) and deltas: quantities gathered into a bill and compared.
// Part of the engine's types (see ../types.ts). Canonical SI: metres, square metres, cubic metres, tonnes;
// units are UCUM codes ('m', 'm2', 'm3', 't').

import type { Band, QuantityUnit, Uncertainty, VolumeField } from './quantities.ts';

/** Where a takeoff quantity comes from: measured on a capture, or drawn/entered by a person. */
export type Provenance = 'captured' | 'drawn';

export interface TakeoffLine {
  /** Stable key of the line across revisions (e.g. "stockpile-a:net"); deltas match on it. */
  readonly key: string;
  readonly description: string;
  readonly costCode: string;
  readonly quantity: number;
  readonly unit: QuantityUnit;
  /** null where no honest tolerance exists (spec rule 5); never a zero band. */
  readonly band: Band | null;
  readonly uncertainty: Uncertainty | null;
  readonly provenance: Provenance;
  /** The capture a captured line was measured on; systematic errors correlate within it. */
  readonly captureId?: string;
  readonly regionId?: string;
  readonly field?: VolumeField;
}

export interface ProvenanceMix {
  readonly captured: number;
  readonly drawn: number;
}

export interface TakeoffTotal {
  readonly costCode: string;
  readonly unit: QuantityUnit;
  readonly quantity: number;
  /** null when any line in the total has no band: a total is no better known than its parts. */
  readonly band: Band | null;
  readonly uncertainty: Uncertainty | null;
  readonly provenance: ProvenanceMix;
  /** true when the total spans captured and drawn quantities (spec rule 6). */
  readonly mixed: boolean;
  readonly lineCount: number;
}

export interface TakeoffDocument {
  readonly lines: readonly TakeoffLine[];
  readonly rollup: readonly TakeoffTotal[];
  readonly provenance: ProvenanceMix;
  readonly mixed: boolean;
  readonly scope: string;
  readonly assumptions: readonly string[];
  readonly disclosures: readonly string[];
}

/** Where a change lies against the band of the difference. 'within': not distinguishable from error. */
export type BandSide = 'above' | 'below' | 'within' | 'unknown';

export interface FigureChange {
  readonly from: number;
  readonly to: number;
  readonly difference: number;
  readonly unit: QuantityUnit;
  /** Band of the difference: both figures' sigmas combined in quadrature; null if either has none. */
  readonly band: Band | null;
  readonly side: BandSide;
}

export interface LineChange extends FigureChange {
  readonly key: string;
  readonly description: string;
  readonly costCode: string;
}

export interface TakeoffDelta {
  readonly added: readonly TakeoffLine[];
  readonly removed: readonly TakeoffLine[];
  readonly changed: readonly LineChange[];
  readonly unchanged: number;
  readonly rollup: readonly (FigureChange & { readonly costCode: string })[];
}
