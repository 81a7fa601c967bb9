// WGS 84 geodetic positions (a photo's EXIF GPS, a map's lat/lng) to and from a local
// east-north-up frame in metres, by the exact ellipsoidal conversion (via earth-centred
// coordinates), not a flat-earth approximation. The one conversion of the platform: the capture
// worker aligns COLMAP's model to the photos' positions in the ENU frame of their mean (so a survey
// is measured in metres), and regions a customer draws on a map are placed in the frame a stored
// cloud states (toLocalEnu).
export interface Geodetic {
  /** Degrees, north positive. */
  lat: number;
  /** Degrees, east positive. */
  lon: number;
  /** Metres above the ellipsoid (EXIF holds height above sea level; the offset cancels locally). */
  alt: number;
}

export type Vec3 = [number, number, number];

const A = 6378137;
const F = 1 / 298.257223563;
const E2 = F * (2 - F);
const RAD = Math.PI / 180;

export function toEcef({ lat, lon, alt }: Geodetic): Vec3 {
  const phi = lat * RAD;
  const lambda = lon * RAD;
  const n = A / Math.sqrt(1 - E2 * Math.sin(phi) ** 2);
  return [
    (n + alt) * Math.cos(phi) * Math.cos(lambda),
    (n + alt) * Math.cos(phi) * Math.sin(lambda),
    (n * (1 - E2) + alt) * Math.sin(phi),
  ];
}

/** Iterative inverse (converges to well under a millimetre in a few rounds near the surface). */
export function fromEcef([x, y, z]: Vec3): Geodetic {
  const lon = Math.atan2(y, x);
  const p = Math.hypot(x, y);
  let lat = Math.atan2(z, p * (1 - E2));
  let alt = 0;
  for (let i = 0; i < 8; i++) {
    const n = A / Math.sqrt(1 - E2 * Math.sin(lat) ** 2);
    alt = p / Math.cos(lat) - n;
    lat = Math.atan2(z, p * (1 - (E2 * n) / (n + alt)));
  }
  return { lat: lat / RAD, lon: lon / RAD, alt };
}

/** The rows of the ECEF-to-ENU rotation at `origin`: east, north, up. */
function enuAxes(origin: Geodetic): [Vec3, Vec3, Vec3] {
  const phi = origin.lat * RAD;
  const lambda = origin.lon * RAD;
  const [sp, cp, sl, cl] = [Math.sin(phi), Math.cos(phi), Math.sin(lambda), Math.cos(lambda)];
  return [
    [-sl, cl, 0],
    [-sp * cl, -sp * sl, cp],
    [cp * cl, cp * sl, sp],
  ];
}

const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/** A local tangent frame: geodetic positions to metres east, north and up of `origin` and back. */
export function enuFrame(origin: Geodetic) {
  const o = toEcef(origin);
  const axes = enuAxes(origin);
  return {
    origin,
    toEnu(position: Geodetic): Vec3 {
      const e = toEcef(position);
      const d: Vec3 = [e[0] - o[0], e[1] - o[1], e[2] - o[2]];
      return [dot(axes[0], d), dot(axes[1], d), dot(axes[2], d)];
    },
    toGeodetic([east, north, up]: Vec3): Geodetic {
      const [ax, ay, az] = axes;
      return fromEcef([
        o[0] + ax[0] * east + ay[0] * north + az[0] * up,
        o[1] + ax[1] * east + ay[1] * north + az[1] * up,
        o[2] + ax[2] * east + ay[2] * north + az[2] * up,
      ]);
    },
  };
}

/** A longitude in (-180, 180]. */
export const wrapLongitude = (lon: number): number => {
  const wrapped = (((lon % 360) + 540) % 360) - 180;
  return wrapped === -180 ? 180 : wrapped;
};

/**
 * The mean of longitudes, correct across the antimeridian: each is taken as its wrapped offset
 * from the first (so 179.9° and -179.9° are 0.2° apart, not 359.8°), and the mean offset is added
 * back and wrapped. A plain mean put a site straddling ±180° on the opposite side of the earth.
 * For a site that does not straddle it, it is the plain mean (to rounding). Sites spanning 180° of
 * longitude or more have no meaningful centre and are not expected here.
 */
export function meanLongitude(lons: readonly number[]): number {
  const reference = lons[0] ?? 0;
  const offset = lons.reduce((sum, lon) => sum + wrapLongitude(lon - reference), 0) / (lons.length || 1);
  return wrapLongitude(reference + offset);
}

/** The frame centred on the mean of the positions (so coordinates stay small). */
export function frameAround(positions: readonly Geodetic[]): ReturnType<typeof enuFrame> {
  const mean = (pick: (g: Geodetic) => number) =>
    positions.reduce((sum, g) => sum + pick(g), 0) / positions.length;
  const lon = meanLongitude(positions.map((g) => g.lon));
  return enuFrame({ lat: mean((g) => g.lat), lon, alt: mean((g) => g.alt) });
}

/** A cloud's stated origin, in a map's terms (lng, not lon). */
export interface GeodeticOrigin {
  /** Degrees, north positive. */
  readonly lat: number;
  /** Degrees, east positive. */
  readonly lng: number;
  /** Metres, in the altitude frame the cloud's origin was stated in. */
  readonly alt: number;
}

/** east, north, up (m) of (lat, lng, alt) in the tangent frame at `origin`. */
export function toLocalEnu(origin: GeodeticOrigin, lat: number, lng: number, alt = origin.alt): Vec3 {
  return enuFrame({ lat: origin.lat, lon: origin.lng, alt: origin.alt }).toEnu({ lat, lon: lng, alt });
}
