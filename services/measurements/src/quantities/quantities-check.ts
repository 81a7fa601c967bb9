// What RecordQuantities refuses: figures without their bands. The spec makes the band part of the
// number, so a snapshot missing one (or with a band in the wrong unit) is never stored.
import { AppError } from '@fieldops/kit';
import type { measurements } from '@fieldops/proto';
import { FIELD_UNITS, VOLUME_FIELDS } from '@fieldops/measure-engine';

function invalid(field: string, sentence: string): never {
  throw new AppError('field_invalid', `${field}: ${sentence}`, { field });
}

function checkFigures(figures: measurements.VolumeFigures | undefined, at: string): void {
  if (!figures) invalid(at, 'the figures are missing.');
  for (const field of VOLUME_FIELDS) {
    const value = field === 'tonnage' ? figures.tonnage : figures[field];
    const band = figures.bands[field];
    if (value === undefined) {
      if (band) invalid(`${at}.bands.${field}`, 'a band is given for a figure that is absent.');
      continue;
    }
    if (!Number.isFinite(value)) invalid(`${at}.${field}`, 'is not a finite number.');
    if (!band) invalid(`${at}.bands.${field}`, `${field} has no band; every measured figure carries one.`);
    if (band.unit !== FIELD_UNITS[field])
      invalid(`${at}.bands.${field}.unit`, `must be ${FIELD_UNITS[field]}, not "${band.unit}".`);
    if (!(band.relativeFraction >= 0) || !(band.plusMinus >= 0) || !Number.isFinite(band.relativeFraction)) {
      invalid(`${at}.bands.${field}`, 'relativeFraction and plusMinus must be finite and not negative.');
    }
  }
}

/** An outline is optional (older workers send none); one that is sent must be a drawable polygon. */
function checkOutline(outline: readonly measurements.Vertex[], field: string): void {
  if (outline.length === 0) return;
  if (outline.length < 3) invalid(field, `has ${outline.length} vertices; a polygon needs at least three.`);
  if (outline.some((v) => !Number.isFinite(v.x) || !Number.isFinite(v.y)))
    invalid(field, 'a vertex has a coordinate that is not a finite number.');
}

export function checkQuantities(req: measurements.RecordQuantitiesRequest): measurements.SiteQuantities {
  if (!req.projectId) throw new AppError('field_required', 'projectId is required.', { field: 'projectId' });
  if (!req.runId)
    throw new AppError(
      'field_required',
      'runId is required: a snapshot is recorded once per reconstruction run.',
      { field: 'runId' },
    );
  const q = req.quantities;
  if (!q) throw new AppError('field_required', 'quantities is required.', { field: 'quantities' });
  if (q.regions.length === 0) invalid('quantities.regions', 'at least one region is needed.');
  if (q.regionCount !== q.regions.length)
    invalid('quantities.regionCount', `is ${q.regionCount} but ${q.regions.length} regions are given.`);
  const ids = new Set<string>();
  q.regions.forEach((region, i) => {
    if (!region.regionId) invalid(`quantities.regions[${i}].regionId`, 'is required.');
    if (ids.has(region.regionId))
      invalid(`quantities.regions[${i}].regionId`, `${region.regionId} appears twice.`);
    ids.add(region.regionId);
    checkFigures(region.figures, `quantities.regions[${i}].figures`);
    checkOutline(region.outline, `quantities.regions[${i}].outline`);
  });
  checkFigures(q.rollup, 'quantities.rollup');
  return q;
}
