// Takeoff lines between the wire and the engine: captured lines are read off a snapshot's region
// figures (with their band and sigmas); drawn lines come as given and carry no band.
import { AppError } from '@fieldops/kit';
import type { measurements } from '@fieldops/proto';
import {
  FIELD_UNITS,
  VOLUME_FIELDS,
  type QuantityUnit,
  type TakeoffLine,
  type VolumeField,
} from '@fieldops/measure-engine';

const UNITS: readonly QuantityUnit[] = ['m', 'm2', 'm3', 't'];
const MAX_LINES = 1000;
const MAX_TEXT = 500;

function invalid(
  field: string,
  sentence: string,
  code: 'field_invalid' | 'field_required' | 'field_invalid_enum' = 'field_invalid',
): never {
  throw new AppError(code, `${field}: ${sentence}`, { field });
}

function text(value: string, field: string, required: boolean): string {
  const clean = value.trim();
  if (required && !clean) invalid(field, 'is required.', 'field_required');
  if (clean.length > MAX_TEXT) invalid(field, `is longer than ${MAX_TEXT} characters.`);
  return clean;
}

export function capturedLines(
  specs: readonly measurements.CapturedLineSpec[],
  snapshot: measurements.QuantitiesSnapshot | null,
): TakeoffLine[] {
  if (specs.length > 0 && !snapshot)
    invalid('quantitiesId', 'captured lines need the snapshot they are measured on.', 'field_required');
  return specs.map((spec, i) => {
    const at = `captured[${i}]`;
    if (!(VOLUME_FIELDS as readonly string[]).includes(spec.field)) {
      invalid(`${at}.field`, `must be one of ${VOLUME_FIELDS.join(', ')}.`, 'field_invalid_enum');
    }
    const field = spec.field as VolumeField;
    const region = snapshot?.quantities?.regions.find((r) => r.regionId === spec.regionId);
    if (!region?.figures)
      invalid(`${at}.regionId`, `snapshot ${snapshot?.id ?? ''} has no region ${spec.regionId}.`);
    const quantity = field === 'tonnage' ? region.figures.tonnage : region.figures[field];
    if (quantity === undefined)
      invalid(`${at}.field`, `region ${spec.regionId} has no ${field} (no material or density was given).`);
    const band = region.figures.bands[field];
    const uncertainty = region.figures.uncertainty[field];
    return {
      key: `${spec.regionId}:${field}`,
      description:
        text(spec.description, `${at}.description`, false) || `${region.name ?? spec.regionId} ${field}`,
      costCode: text(spec.costCode, `${at}.costCode`, true),
      quantity,
      unit: FIELD_UNITS[field],
      band: band
        ? {
            unit: FIELD_UNITS[field],
            relativeFraction: band.relativeFraction,
            plusMinus: band.plusMinus,
            confidence: band.confidence,
          }
        : null,
      uncertainty: uncertainty ?? null,
      provenance: 'captured',
      captureId: snapshot?.captureId || snapshot?.runId || '',
      regionId: spec.regionId,
      field,
    };
  });
}

export function drawnLines(specs: readonly measurements.DrawnLineSpec[]): TakeoffLine[] {
  return specs.map((spec, i) => {
    const at = `drawn[${i}]`;
    if (!UNITS.includes(spec.unit as QuantityUnit))
      invalid(`${at}.unit`, `must be one of ${UNITS.join(', ')} (canonical SI).`, 'field_invalid_enum');
    if (!Number.isFinite(spec.quantity)) invalid(`${at}.quantity`, 'is not a finite number.');
    return {
      key: text(spec.key, `${at}.key`, true),
      description: text(spec.description, `${at}.description`, false),
      costCode: text(spec.costCode, `${at}.costCode`, true),
      quantity: spec.quantity,
      unit: spec.unit as QuantityUnit,
      band: null,
      uncertainty: null,
      provenance: 'drawn',
    };
  });
}

export function checkLineSet(lines: readonly TakeoffLine[]): void {
  if (lines.length === 0)
    invalid('lines', 'a takeoff needs at least one captured or drawn line.', 'field_required');
  if (lines.length > MAX_LINES) invalid('lines', `at most ${MAX_LINES} lines are accepted.`);
  const keys = new Set<string>();
  for (const line of lines) {
    if (keys.has(line.key)) invalid('lines', `the key ${line.key} is used twice; deltas match lines by key.`);
    keys.add(line.key);
  }
}

export function lineMessage(line: TakeoffLine): measurements.TakeoffLine {
  return {
    key: line.key,
    description: line.description,
    costCode: line.costCode,
    quantity: line.quantity,
    unit: line.unit,
    ...(line.band ? { band: { ...line.band } } : {}),
    ...(line.uncertainty ? { uncertainty: { ...line.uncertainty } } : {}),
    provenance: line.provenance,
    ...(line.captureId ? { captureId: line.captureId } : {}),
    ...(line.regionId ? { regionId: line.regionId } : {}),
    ...(line.field ? { field: line.field } : {}),
  };
}

export function lineFromMessage(line: measurements.TakeoffLine): TakeoffLine {
  const unit = line.unit as QuantityUnit;
  return {
    key: line.key,
    description: line.description,
    costCode: line.costCode,
    quantity: line.quantity,
    unit,
    band: line.band
      ? {
          unit,
          relativeFraction: line.band.relativeFraction,
          plusMinus: line.band.plusMinus,
          confidence: line.band.confidence,
        }
      : null,
    uncertainty: line.uncertainty ?? null,
    provenance: line.provenance === 'drawn' ? 'drawn' : 'captured',
    ...(line.captureId ? { captureId: line.captureId } : {}),
    ...(line.regionId ? { regionId: line.regionId } : {}),
    ...(line.field ? { field: line.field as VolumeField } : {}),
  };
}
