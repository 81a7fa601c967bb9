// WGS 84 positions (a map's lat/lng, a photo's EXIF GPS) to a local east-north-up frame in metres
// around a stated origin: the frame the platform's photogrammetry writes its clouds in, so that
// regions a customer draws on a map can be measured on them. The exact ellipsoidal conversion
// (via earth-centred coordinates), not a flat-earth approximation.

export interface GeodeticOrigin {
  /** Degrees, north positive. */
  readonly lat: number;
  /** Degrees, east positive. */
  readonly lng: number;
  /** Metres, in the altitude frame the cloud's origin was stated in. */
  readonly alt: number;
}

type Vec3 = [number, number, number];

const A = 6378137;
const F = 1 / 298.257223563;
const E2 = F * (2 - F);
const RAD = Math.PI / 180;

function toEcef(lat: number, lng: number, alt: number): Vec3 {
  const phi = lat * RAD;
  const lambda = lng * RAD;
  const n = A / Math.sqrt(1 - E2 * Math.sin(phi) ** 2);
  return [
    (n + alt) * Math.cos(phi) * Math.cos(lambda),
    (n + alt) * Math.cos(phi) * Math.sin(lambda),
    (n * (1 - E2) + alt) * Math.sin(phi),
  ];
}

/** east, north, up (m) of (lat, lng, alt) in the tangent frame at `origin`. */
export function toLocalEnu(origin: GeodeticOrigin, lat: number, lng: number, alt = origin.alt): Vec3 {
  const o = toEcef(origin.lat, origin.lng, origin.alt);
  const p = toEcef(lat, lng, alt);
  const d: Vec3 = [p[0] - o[0], p[1] - o[1], p[2] - o[2]];
  const phi = origin.lat * RAD;
  const lambda = origin.lng * RAD;
  const [sp, cp, sl, cl] = [Math.sin(phi), Math.cos(phi), Math.sin(lambda), Math.cos(lambda)];
  return [
    -sl * d[0] + cl * d[1],
    -sp * cl * d[0] - sp * sl * d[1] + cp * d[2],
    cp * cl * d[0] + cp * sl * d[1] + sp * d[2],
  ];
}
