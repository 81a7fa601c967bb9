// The report's regions as GeoJSON (RFC 7946): a Feature per region with its stated toe in WGS 84
// (longitude, latitude; the ring closed) and its figures, each with unit, band and confidence, as
// properties. The automatic whole-capture region has no toe stated in WGS 84: its geometry is
// null and its outline goes along in metres of the capture's plan frame (outlineM).
import { REPORT_FIELDS, type QuantityReport, type ReportRegion } from './report-content.ts';

const closed = (ring: [number, number][]): [number, number][] => [...ring, ring[0]!];

function figureProperties(region: ReportRegion): Record<string, unknown> {
  return Object.fromEntries(
    REPORT_FIELDS.flatMap(({ key }) => {
      const f = region.figures[key];
      return f
        ? [
            [
              key,
              {
                value: f.value,
                unit: f.unit,
                plusMinus: f.plusMinus,
                relativeFraction: f.relativeFraction,
                confidence: f.confidence,
              },
            ],
          ]
        : [];
    }),
  );
}

export function reportGeoJson(report: QuantityReport): Record<string, unknown> {
  return {
    type: 'FeatureCollection',
    // Foreign members (RFC 7946 §6.1): which snapshot these regions and figures are.
    quantitiesId: report.quantitiesId,
    projectId: report.projectId,
    measuredAt: report.measuredAt,
    basis: report.basis,
    regionVersion: report.regionVersion,
    features: report.regions.map((region) => ({
      type: 'Feature',
      id: region.id,
      geometry:
        region.toe && region.toe.length >= 3 ? { type: 'Polygon', coordinates: [closed(region.toe)] } : null,
      properties: {
        regionId: region.id,
        name: region.name,
        base: region.base,
        ...(region.material ? { material: region.material } : {}),
        ...figureProperties(region),
        ...(!region.toe && region.outline
          ? {
              outlineM: closed(region.outline),
              outlineFrame: 'metres of the capture’s plan frame (no WGS 84 toe was stated)',
            }
          : {}),
      },
    })),
  };
}
