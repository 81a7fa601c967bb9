// What a reconstruction worker calls: measure the regions drawn on a capture, or, when none are
// drawn yet, the whole capture as one region (a rectangle just inside the cloud's extent, so the
// base is fitted to the captured ground at the edges of the survey).
import { emptyBounds } from './bounds.ts';
import { EngineError } from './errors.ts';
import { measureRegions } from './measure-regions.ts';
import type { MeasureOptions } from './measure-regions.ts';
import { openPointCloud } from './readers/open-point-cloud.ts';
import type { Bounds3, ByteSource, RegionInput, SiteQuantities, XY } from './types.ts';

/** Share of the extent's width kept clear at each edge: sparse edge points make poor ground. */
const SITE_INSET = 0.03;
export const WHOLE_SITE_REGION_ID = 'site';

async function extentOf(source: ByteSource): Promise<Bounds3> {
  const reader = await openPointCloud(source);
  if (reader.header.bounds && reader.header.declaredCount > 0) return reader.header.bounds;
  const b = emptyBounds();
  for await (const chunk of reader.points()) {
    for (let k = 0; k < chunk.count; k++) {
      const x = chunk.x[k] as number;
      const y = chunk.y[k] as number;
      if (x < b.minX) b.minX = x;
      if (x > b.maxX) b.maxX = x;
      if (y < b.minY) b.minY = y;
      if (y > b.maxY) b.maxY = y;
    }
  }
  if (!(b.maxX > b.minX && b.maxY > b.minY)) {
    throw new EngineError(
      'insufficient_points',
      `${source.name} holds too few points to span an area.`,
      source.name,
    );
  }
  return b;
}

/** The rectangle just inside the extent of the cloud (or of all its tiles), in the file's units. */
export async function wholeSiteRegion(source: ByteSource | readonly ByteSource[]): Promise<RegionInput> {
  const sources: readonly ByteSource[] = Array.isArray(source) ? source : [source as ByteSource];
  const all = await Promise.all(sources.map(extentOf));
  const b = {
    minX: Math.min(...all.map((e) => e.minX)),
    minY: Math.min(...all.map((e) => e.minY)),
    maxX: Math.max(...all.map((e) => e.maxX)),
    maxY: Math.max(...all.map((e) => e.maxY)),
  };
  const dx = (b.maxX - b.minX) * SITE_INSET;
  const dy = (b.maxY - b.minY) * SITE_INSET;
  const polygon: XY[] = [
    [b.minX + dx, b.minY + dy],
    [b.maxX - dx, b.minY + dy],
    [b.maxX - dx, b.maxY - dy],
    [b.minX + dx, b.maxY - dy],
  ];
  return { id: WHOLE_SITE_REGION_ID, name: 'Whole capture', polygon };
}

export async function measureSite(
  source: ByteSource | readonly ByteSource[],
  regions: readonly RegionInput[] | undefined,
  options: MeasureOptions,
): Promise<SiteQuantities> {
  const chosen = regions && regions.length > 0 ? regions : [await wholeSiteRegion(source)];
  return measureRegions(source, chosen, options);
}
