// The engine's SiteQuantities as the RecordQuantities message. The reconstruction workers call
// measureRegions and hand its result through this, so the gRPC contract and the engine's types
// cannot drift apart silently (both sides are checked by the compiler).
import type { measurements } from '@fieldops/proto';
import type { Band, SiteQuantities, Uncertainty, VolumeFigures } from './types.ts';

function defined<T>(record: Partial<Record<string, T>>): Record<string, T> {
  return Object.fromEntries(
    Object.entries(record).filter((entry): entry is [string, T] => entry[1] !== undefined),
  );
}

export function volumeFiguresMessage(figures: VolumeFigures): measurements.VolumeFigures {
  return {
    cut: figures.cut,
    fill: figures.fill,
    net: figures.net,
    footprint: figures.footprint,
    ...(figures.tonnage !== null ? { tonnage: figures.tonnage } : {}),
    units: { ...figures.units },
    bands: defined<Band>(figures.bands),
    uncertainty: defined<Uncertainty>(figures.uncertainty),
  };
}

export function quantitiesMessage(q: SiteQuantities): measurements.SiteQuantities {
  return {
    regions: q.regions.map((r) => ({
      regionId: r.regionId,
      ...(r.name !== undefined ? { name: r.name } : {}),
      ...(r.material !== undefined ? { material: r.material } : {}),
      ...(r.densityTPerM3 !== undefined ? { densityTPerM3: r.densityTPerM3 } : {}),
      polygonArea: r.polygonArea,
      outline: r.outline.map(([x, y]) => ({ x, y })),
      coverage: { ...r.coverage },
      base: { ...r.base, ...(r.base.plane ? { plane: { ...r.base.plane } } : {}) },
      figures: volumeFiguresMessage(r),
    })),
    rollup: volumeFiguresMessage(q.rollup),
    regionCount: q.regionCount,
    surface: { ...q.surface },
    capture: {
      format: q.capture.format,
      variant: q.capture.variant,
      declaredCount: q.capture.declaredCount,
      pointsRead: q.capture.pointsRead,
      pointsUsed: q.capture.pointsUsed,
      skippedNonFinite: q.capture.skippedNonFinite,
      ...(q.capture.crs?.epsg !== undefined ? { epsg: q.capture.crs.epsg } : {}),
      horizontalUnit: { ...q.capture.horizontalUnit },
      verticalUnit: { ...q.capture.verticalUnit },
      ...(q.capture.crs
        ? {
            coordinateSystem: {
              name: q.capture.crs.name,
              source: q.capture.crs.source,
              datum: { ...q.capture.crs.datum },
              verticalUnitStated: q.capture.crs.verticalUnitStated,
            },
          }
        : {}),
    },
    errorModel: { ...q.errorModel, profile: { ...q.errorModel.profile } },
    disclosures: [...q.disclosures],
  };
}
