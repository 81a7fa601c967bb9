// Numbers plus their bands in the spec's shape: a `bands` map keyed by field, each band with its
// unit and relativeFraction. Figures without a value (tonnage with no density) get no band.
import { FIELD_UNITS, VOLUME_FIELDS } from '../types.ts';
import type { Band, Uncertainty, VolumeField, VolumeFigures } from '../types.ts';
import { bandOf, sumSameCapture } from './bands.ts';

export interface RawFigures {
  readonly cut: number;
  readonly fill: number;
  readonly net: number;
  readonly footprint: number;
  readonly tonnage: number | null;
  readonly uncertainty: Partial<Record<VolumeField, Uncertainty>>;
}

export function toFigures(raw: RawFigures): VolumeFigures {
  const bands: Partial<Record<VolumeField, Band>> = {};
  for (const field of VOLUME_FIELDS) {
    const value = raw[field];
    const u = raw.uncertainty[field];
    if (value !== null && u) bands[field] = bandOf(value, FIELD_UNITS[field], u);
  }
  return { ...raw, units: FIELD_UNITS, bands };
}

/** The site rollup: sums of the regions, uncertainties combined as parts of one capture. */
export function rollup(regions: readonly RawFigures[]): VolumeFigures {
  const sum = (field: 'cut' | 'fill' | 'net' | 'footprint') => regions.reduce((a, r) => a + r[field], 0);
  const weighed = regions.filter((r) => r.tonnage !== null);
  const uncertainty: Partial<Record<VolumeField, Uncertainty>> = {};
  for (const field of VOLUME_FIELDS) {
    const parts = regions.map((r) => r.uncertainty[field]).filter((u): u is Uncertainty => u !== undefined);
    if (parts.length > 0) uncertainty[field] = sumSameCapture(parts);
  }
  return toFigures({
    cut: sum('cut'),
    fill: sum('fill'),
    net: sum('net'),
    footprint: sum('footprint'),
    tonnage: weighed.length > 0 ? weighed.reduce((a, r) => a + (r.tonnage ?? 0), 0) : null,
    uncertainty,
  });
}
