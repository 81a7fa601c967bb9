// Where a stored point cloud sits on the earth, so that regions stated in WGS 84 can be measured on
// it. The platform's photogrammetry writes its clouds in metres east, north and up of the mean
// camera position and states that origin in the PLY header (a `comment` line, "… east, north, up of
// lat <deg> lon <deg> alt <m>"); a cloud uploaded in the same form is placed the same way. A LAS
// whose CRS the engine resolved (any projected CRS proj4 describes: a UTM zone, a State Plane zone
// in feet, ETRS89 / UTM in a WKT record) is placed through that projection, in the file's units.
// A cloud that states neither (a PLY in its own frame, a LAS with no CRS) is not placed: stated
// regions are refused on it with a sentence that says so, never measured somewhere wrong.
import { AppError } from '@fieldops/kit';
import {
  enuCloudFrame,
  isEngineError,
  openPointCloud,
  projectedCloudFrame,
  type ByteSource,
  type CloudFrame,
  type GeodeticOrigin,
} from '@fieldops/measure-engine';

/** A PLY header is read this far at most (the engine's own limit is 64 KiB). */
const MAX_HEADER_BYTES = 64 * 1024;
const ORIGIN = /east, north, up of lat (-?\d+(?:\.\d+)?) lon (-?\d+(?:\.\d+)?) alt (-?\d+(?:\.\d+)?)/;

async function headerText(source: ByteSource): Promise<string> {
  let text = '';
  const decoder = new TextDecoder('latin1');
  for await (const chunk of source.open()) {
    text += decoder.decode(chunk, { stream: true });
    if (text.includes('end_header') || text.length >= MAX_HEADER_BYTES) break;
  }
  return text.slice(0, MAX_HEADER_BYTES);
}

/** The origin a PLY header states, or null when the file states none. */
export async function statedOrigin(source: ByteSource): Promise<GeodeticOrigin | null> {
  const text = await headerText(source);
  if (!text.startsWith('ply')) return null;
  const end = text.indexOf('end_header');
  const lines = (end >= 0 ? text.slice(0, end) : text).split(/\r?\n/);
  for (const line of lines) {
    if (!line.startsWith('comment')) continue;
    const found = ORIGIN.exec(line);
    if (found) return { lat: Number(found[1]), lng: Number(found[2]), alt: Number(found[3]) };
  }
  return null;
}

/** The frame of the projected CRS a LAS file states, or null (not LAS, no CRS, unreadable). */
async function lasProjectedFrame(source: ByteSource): Promise<CloudFrame | null> {
  try {
    const { header } = await openPointCloud(source);
    if (header.format !== 'las' || header.crs === undefined) return null;
    return projectedCloudFrame(header.crs, header.verticalUnit);
  } catch (error) {
    // A file the engine cannot read (a CRS it cannot resolve among them) is refused below as
    // unplaced; measuring it says why.
    if (isEngineError(error)) return null;
    throw error;
  }
}

/** The frame of the first file (tiles of one capture share their frame), or a conflict. */
export async function cloudFrame(sources: readonly ByteSource[]): Promise<CloudFrame> {
  const first = sources[0];
  const origin = first ? await statedOrigin(first) : null;
  if (origin) return enuCloudFrame(origin);
  const projected = first ? await lasProjectedFrame(first) : null;
  if (projected) return projected;
  throw new AppError(
    'conflict',
    `${first?.name ?? 'The capture'} does not state where it lies on the earth (no east-north-up origin in its header, and no projected coordinate system the engine can resolve), so regions stated in WGS 84 cannot be placed on it. Process the photos on this platform, or upload the cloud as PLY in metres east, north, up of a stated origin, or as LAS whose GeoTIFF keys or WKT record name its projected CRS (docs/measurements.md, "Regions").`,
  );
}
