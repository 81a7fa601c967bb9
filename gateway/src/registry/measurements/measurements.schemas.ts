// Measured quantities and takeoffs (spec: Measured quantities and tolerance bands; Other
// resources: Quantities, Takeoff; ENDPOINTS rows 8, 26, 27, 28). Served by
// measurements.MeasurementService. Every continuous figure goes out with its band; a band the
// service does not have (a drawn line) goes out as null, never as zero.
// The schemas and helpers the endpoint files of this folder share; each endpoint is declared in
// the file named after its path.
import { ID_REF_MAX, MEASUREMENT_BASES, REGION_BASES } from '@fieldops/contracts';
import type { measurements } from '@fieldops/proto';
import { z } from 'zod';

export const id = z.string().min(1).max(ID_REF_MAX);
export const projectParams = z.strictObject({ id });
export const takeoffParams = z.strictObject({ id, takeoffId: id });

export const FIELDS = ['cut', 'fill', 'net', 'footprint', 'tonnage'] as const;

export const band = z
  .object({
    unit: z.enum(['m', 'm2', 'm3', 't']).describe('The unit of the figure the band qualifies.'),
    relativeFraction: z
      .number()
      .describe(
        '0.1 means plus or minus 10 percent (a fraction, never a percentage). 1 on a figure of exactly 0.',
      ),
    plusMinus: z.number().describe('The same band in the figure’s unit.'),
    confidence: z.number().describe('Coverage probability of the band (0.95).'),
  })
  .describe('A tolerance band: part of the number. Carry it through; never strip it.')
  .meta({ id: 'Band' });

export const figures = {
  cut: z.number().describe('Volume below the base, m3, reported positive.'),
  fill: z.number().describe('Volume above the base, m3.'),
  net: z.number().describe('fill − cut, m3.'),
  footprint: z.number().describe('Area of the measured cells inside the region, m2.'),
  tonnage: z
    .number()
    .nullable()
    .describe('|net| × bulk density, t; null when no material or density was given.'),
  units: z.record(z.string(), z.string()).describe('The unit of each field.'),
  bands: z
    .record(z.string(), band)
    .describe('A band per field (cut, fill, net, footprint, and tonnage when it has a value).'),
};

const outlineSchema = z
  .object({
    type: z.literal('Polygon'),
    coordinates: z
      // [x, y] as an array of exactly two numbers, not a tuple (prefixItems + items: false): the same
      // constraint, in the form validating proxies such as Prism read correctly.
      .array(z.array(z.array(z.number()).length(2)))
      .describe('One closed ring of [x, y] positions (the first repeated last).'),
  })
  .describe(
    "The region's polygon, GeoJSON-like, in metres of the capture's plan frame (the cloud's coordinates scaled to metres): as drawn for the measurement, or as derived for the whole-capture region. Absent on snapshots recorded before outlines were stored.",
  );

/** A stored outline as GeoJSON's Polygon (closed ring); none when the snapshot predates outlines. */
function outlineOut(outline: readonly measurements.Vertex[]) {
  if (outline.length === 0) return {};
  const ring = [...outline, outline[0]!].map((v): [number, number] => [v.x, v.y]);
  return { outline: { type: 'Polygon' as const, coordinates: [ring] } };
}

export const regionSchema = z
  .object({
    regionId: z.string(),
    name: z.string().optional(),
    material: z.string().optional(),
    densityTPerM3: z.number().optional(),
    polygonArea: z.number().describe('Area of the polygon as drawn, m2: exact for its vertices, so no band.'),
    outline: outlineSchema.optional(),
    coverage: z.object({
      measuredFraction: z.number(),
      interpolatedFraction: z.number(),
      voidFraction: z.number(),
    }),
    base: z.looseObject({
      kind: z.enum(REGION_BASES),
      residualRmsM: z
        .number()
        .optional()
        .describe('RMS residual of the base fitted to the boundary, metres.'),
      warpAppliedM: z
        .number()
        .optional()
        .describe('The model deformation (m, one sigma) the band carries for this region.'),
      warpSource: z
        .enum(['profile', 'base-residual', 'measured-dome'])
        .optional()
        .describe(
          'Where warpAppliedM comes from: the accuracy profile, the base fit’s residual, or a measured dome.',
        ),
    }),
    ...figures,
  })
  .meta({ id: 'Region' });

export const quantitiesSchema = z
  .object({
    id: z.string(),
    projectId: z.string(),
    runId: z.string(),
    captureId: z.string(),
    measuredAt: z.string(),
    measured: z
      .boolean()
      .describe('false on a project nothing has been measured on yet: no id, no regions, regionCount 0.'),
    basis: z
      .enum(MEASUREMENT_BASES)
      .nullable()
      .describe(
        'What was measured: stated-regions (the regions stated with PUT /projects/:id/regions), or automatic-whole-capture (no regions stated: the whole capture above a plane fitted to its edges, trees and buildings included; not a stated stockpile). null when nothing was measured. Branch on it before calling a figure a stockpile volume.',
      ),
    regionVersion: z
      .number()
      .int()
      .describe('The version of the stated regions this snapshot measured; 0 for the automatic region.'),
    regions: z.array(regionSchema),
    rollup: z
      .object({
        ...figures,
        measured: z.boolean().describe('false when nothing was measured: the zeros are not measurements.'),
      })
      .describe('The site rollup: sums of the regions, with bands.'),
    regionCount: z.number().int().describe('A tally: it carries no band.'),
    surface: z.looseObject({ cellSizeM: z.number(), pointDensityPerM2: z.number() }).optional(),
    capture: z
      .looseObject({
        format: z.string(),
        pointsRead: z.number(),
        coordinateSystem: z
          .looseObject({
            name: z.string(),
            source: z.enum(['geokeys-epsg', 'geokeys-parameters', 'wkt']),
            datum: z
              .object({
                name: z.string(),
                rule: z.enum(['wgs84', 'taken-as-wgs84', 'transformed']),
                offsetUpToM: z.number().optional(),
                statement: z.string(),
              })
              .describe(
                'How toes stated in WGS 84 are placed in the CRS: taken-as-wgs84 when its definition applies no transformation (NAD83, ETRS89), with the size of that assumption in offsetUpToM where known.',
              ),
            verticalUnitStated: z.boolean(),
          })
          .optional()
          .describe(
            'The projected CRS the file stated and the engine resolved (its units are horizontalUnit and verticalUnit); absent when the file states none, and then metres were assumed (see disclosures).',
          ),
      })
      .optional(),
    errorModel: z.looseObject({ confidence: z.number(), coverageFactor: z.number() }).optional(),
    disclosures: z.array(z.string()),
  })
  .meta({ id: 'Quantities' });

export const mix = z.object({ captured: z.number().int(), drawn: z.number().int() });

export const lineSchema = z
  .object({
    key: z.string().describe('Stable across revisions; the delta matches lines by it.'),
    description: z.string(),
    costCode: z.string(),
    quantity: z.number().describe('In canonical SI (m, m2, m3, t).'),
    unit: z.enum(['m', 'm2', 'm3', 't']),
    band: band
      .nullable()
      .describe('null where no honest tolerance exists (a drawn line); never render it as zero.'),
    provenance: z.enum(['captured', 'drawn']),
    captureId: z.string().optional(),
    regionId: z.string().optional(),
    field: z.enum(FIELDS).optional(),
  })
  .meta({ id: 'TakeoffLine' });

export const totalSchema = z
  .object({
    costCode: z.string(),
    unit: z.string(),
    quantity: z.number(),
    band: band.nullable().describe('null when any line in the total has no band.'),
    provenance: mix,
    mixed: z.boolean().describe('true when the total spans captured and drawn quantities.'),
    lineCount: z.number().int(),
  })
  .meta({ id: 'TakeoffTotal' });

export const takeoffSummary = {
  id: z.string(),
  projectId: z.string(),
  revision: z.number().int().describe('1, 2, 3 … per project.'),
  quantitiesId: z.string().describe('The quantities snapshot captured lines were measured on ("" if none).'),
  createdAt: z.string(),
  rollup: z.array(totalSchema).describe('Totals by cost code (and unit), each with its provenance mix.'),
  provenance: mix,
  mixed: z.boolean(),
  scope: z.string(),
  assumptions: z.array(z.string()),
  disclosures: z.array(z.string()),
};

export const takeoffSchema = z
  .object({ ...takeoffSummary, lines: z.array(lineSchema) })
  .meta({ id: 'Takeoff' });

export const changeFields = {
  from: z.number(),
  to: z.number(),
  difference: z.number().describe('to − from.'),
  unit: z.string(),
  band: band.nullable().describe('Band of the difference; null when either side has no band.'),
  side: z
    .enum(['above', 'below', 'within', 'unknown'])
    .describe(
      'above/below: the change exceeds its band; within: not distinguishable from error; unknown: no band.',
    ),
};

export const deltaSchema = z
  .object({
    fromId: z.string(),
    toId: z.string(),
    fromRevision: z.number().int(),
    toRevision: z.number().int(),
    added: z.array(lineSchema),
    removed: z.array(lineSchema),
    changed: z.array(
      z.object({ key: z.string(), description: z.string(), costCode: z.string(), ...changeFields }),
    ),
    unchanged: z.number().int(),
    rollup: z.array(z.object({ costCode: z.string(), ...changeFields })),
  })
  .meta({ id: 'TakeoffDelta' });

// ---- proto → HTTP body: optional bands become null where the spec says so --------------------

export const bandOut = (b: measurements.Band | undefined) =>
  b
    ? { unit: b.unit, relativeFraction: b.relativeFraction, plusMinus: b.plusMinus, confidence: b.confidence }
    : null;

export function figuresOut(f: measurements.VolumeFigures | undefined) {
  const bands = Object.fromEntries(
    FIELDS.flatMap((field) => (f?.bands[field] ? [[field, bandOut(f.bands[field])]] : [])),
  );
  return {
    cut: f?.cut ?? 0,
    fill: f?.fill ?? 0,
    net: f?.net ?? 0,
    footprint: f?.footprint ?? 0,
    tonnage: f?.tonnage ?? null,
    units: f?.units ?? {},
    bands,
  };
}

export const NOTHING_MEASURED =
  'Nothing has been measured on this project yet; quantities appear once a capture with 3D points has been processed.';

export function quantitiesOut(s: measurements.QuantitiesSnapshot) {
  const q = s.quantities;
  return {
    id: s.id,
    projectId: s.projectId,
    runId: s.runId,
    captureId: s.captureId,
    measuredAt: s.measuredAt,
    measured: q !== undefined,
    basis: q !== undefined ? (s.basis as (typeof MEASUREMENT_BASES)[number]) : null,
    regionVersion: s.regionVersion,
    regions: (q?.regions ?? []).map(({ figures: f, outline, ...region }) => ({
      ...region,
      ...outlineOut(outline),
      ...figuresOut(f),
    })),
    rollup: { ...figuresOut(q?.rollup), measured: q !== undefined },
    regionCount: q?.regionCount ?? 0,
    surface: q?.surface,
    capture: q?.capture,
    errorModel: q?.errorModel,
    disclosures: q?.disclosures ?? [NOTHING_MEASURED],
  };
}

export const lineOut = ({ uncertainty: _sigmas, ...line }: measurements.TakeoffLine) => ({
  ...line,
  band: bandOut(line.band),
});

export const totalOut = ({ uncertainty: _sigmas, ...total }: measurements.TakeoffTotal) => ({
  ...total,
  band: bandOut(total.band),
});

export const takeoffOut = (t: measurements.Takeoff, withLines: boolean) => ({
  id: t.id,
  projectId: t.projectId,
  revision: t.revision,
  quantitiesId: t.quantitiesId,
  createdAt: t.createdAt,
  ...(withLines ? { lines: t.lines.map(lineOut) } : {}),
  rollup: t.rollup.map(totalOut),
  provenance: t.provenance,
  mixed: t.mixed,
  scope: t.scope,
  assumptions: t.assumptions,
  disclosures: t.disclosures,
});

export const changeOut = (c: measurements.FigureChange | undefined) => ({
  from: c?.from ?? 0,
  to: c?.to ?? 0,
  difference: c?.difference ?? 0,
  unit: c?.unit ?? '',
  band: bandOut(c?.band),
  side: c?.side ?? 'unknown',
});

export const deltaOut = (d: measurements.TakeoffDelta) => ({
  fromId: d.fromId,
  toId: d.toId,
  fromRevision: d.fromRevision,
  toRevision: d.toRevision,
  added: d.added.map(lineOut),
  removed: d.removed.map(lineOut),
  changed: d.changed.map((c) => ({
    key: c.key,
    description: c.description,
    costCode: c.costCode,
    ...changeOut(c.change),
  })),
  unchanged: d.unchanged,
  rollup: d.rollup.map((c) => ({ costCode: c.costCode, ...changeOut(c.change) })),
});
