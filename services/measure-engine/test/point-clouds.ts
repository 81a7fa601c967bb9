// Synthetic point clouds of shapes with known volumes, written as PLY (ascii and binary) and LAS
// bytes (and LAZ, ./laz-writer.ts), so the engine is tested on the same byte formats a capture
// uploads. The shared real files are found by ./shared-files.ts.
export { lasToLaz } from './laz-writer.ts';
export { sharedFile } from './shared-files.ts';

/** Deterministic uniform numbers in [0, 1) (mulberry32), so a failing case can be replayed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

export interface Cloud {
  x: Float64Array;
  y: Float64Array;
  z: Float64Array;
}

/**
 * `density` points per m² scattered uniformly over the square [x0, x0 + size]², heights from
 * `surface`, plus Gaussian noise of `sigma` metres.
 */
export function scatter(
  surface: (x: number, y: number) => number,
  options: { x0?: number; y0?: number; size: number; density: number; sigma: number; seed?: number },
): Cloud {
  const random = seeded(options.seed ?? 7);
  const n = Math.round(options.size * options.size * options.density);
  const cloud: Cloud = { x: new Float64Array(n), y: new Float64Array(n), z: new Float64Array(n) };
  for (let k = 0; k < n; k++) {
    const x = (options.x0 ?? 0) + random() * options.size;
    const y = (options.y0 ?? 0) + random() * options.size;
    cloud.x[k] = x;
    cloud.y[k] = y;
    cloud.z[k] = surface(x, y) + options.sigma * gaussian(random);
  }
  return cloud;
}

/** A cone of radius r and height h centred at (cx, cy): volume πr²h/3. */
export const cone =
  (cx: number, cy: number, r: number, h: number) =>
  (x: number, y: number): number =>
    Math.max(0, h * (1 - Math.hypot(x - cx, y - cy) / r));

/** A frustum (truncated cone): base radius r1, top radius r2, height h; volume πh(r1² + r1r2 + r2²)/3. */
export const frustum =
  (cx: number, cy: number, r1: number, r2: number, h: number) =>
  (x: number, y: number): number => {
    const d = Math.hypot(x - cx, y - cy);
    if (d <= r2) return h;
    return Math.max(0, (h * (r1 - d)) / (r1 - r2));
  };

/** A rectangular pit of depth d over [x1, x2] × [y1, y2]: volume (x2 − x1)(y2 − y1)d of cut. */
export const pit =
  (x1: number, y1: number, x2: number, y2: number, d: number) =>
  (x: number, y: number): number =>
    x >= x1 && x <= x2 && y >= y1 && y <= y2 ? -d : 0;

/** Adds a tilted base plane under any shape: the engine must fit it, not assume z = 0. */
export const onPlane =
  (shape: (x: number, y: number) => number, z0: number, sx: number, sy: number) =>
  (x: number, y: number): number =>
    z0 + sx * x + sy * y + shape(x, y);

export function plyAscii(cloud: Cloud, extraHeader = ''): Uint8Array {
  const lines = ['ply', 'format ascii 1.0', 'comment synthetic', `element vertex ${cloud.x.length}`];
  lines.push('property double x', 'property double y', 'property double z', extraHeader + 'end_header');
  for (let k = 0; k < cloud.x.length; k++) lines.push(`${cloud.x[k]} ${cloud.y[k]} ${cloud.z[k]}`);
  return new TextEncoder().encode(lines.join('\n') + '\n');
}

/** Binary PLY with float x/y/z (or double) and uchar colour, either byte order. */
export function plyBinary(
  cloud: Cloud,
  options: { little?: boolean; type?: 'float' | 'double'; color?: boolean } = {},
): Uint8Array {
  const little = options.little ?? true;
  const type = options.type ?? 'double';
  const bytes = type === 'double' ? 8 : 4;
  const color = options.color ?? false;
  const header = [
    'ply',
    `format binary_${little ? 'little' : 'big'}_endian 1.0`,
    `element vertex ${cloud.x.length}`,
    `property ${type} x`,
    `property ${type} y`,
    `property ${type} z`,
    ...(color ? ['property uchar red', 'property uchar green', 'property uchar blue'] : []),
    'end_header',
    '',
  ].join('\n');
  const head = new TextEncoder().encode(header);
  const record = 3 * bytes + (color ? 3 : 0);
  const out = new Uint8Array(head.byteLength + record * cloud.x.length);
  out.set(head, 0);
  const view = new DataView(out.buffer);
  for (let k = 0; k < cloud.x.length; k++) {
    const at = head.byteLength + k * record;
    const values = [cloud.x[k], cloud.y[k], cloud.z[k]] as number[];
    values.forEach((v, i) =>
      type === 'double' ? view.setFloat64(at + i * 8, v, little) : view.setFloat32(at + i * 4, v, little),
    );
    if (color) [10, 20, 30].forEach((c, i) => view.setUint8(at + 3 * bytes + i, c));
  }
  return out;
}

/**
 * LAS 1.2 (format 0 or 2) or 1.4 (format 6), scale 1 mm. `linearUnitEpsg` adds a LASF_Projection
 * 34735 record stating the linear unit (9001 metre, 9002 foot, 9003 US survey foot) and the
 * projected CRS `projectedCrsEpsg` (default 2263, NAD83 / New York Long Island; 326zz/327zz for a
 * WGS 84 / UTM zone, as NodeODM writes). `geoKeys` writes exactly the keys given instead (each
 * [id, value] inline, each `geoDoubles` [id, value] in a LASF_Projection 34736 record), and `wkt`
 * a LASF_Projection 2112 OGC WKT record (with LAS 1.4's WKT bit in the global encoding).
 */
export function las(
  cloud: Cloud,
  options: {
    minor?: 2 | 4;
    format?: 0 | 2 | 6;
    linearUnitEpsg?: number;
    projectedCrsEpsg?: number;
    geoKeys?: readonly (readonly [number, number])[];
    geoDoubles?: readonly (readonly [number, number])[];
    wkt?: string;
    scale?: number;
  } = {},
): Uint8Array {
  const minor = options.minor ?? 2;
  const format = options.format ?? (minor === 4 ? 6 : 0);
  const recordBytes = ({ 0: 20, 2: 26, 6: 30 } as const)[format];
  const headerBytes = minor === 4 ? 375 : 227;
  const records: Uint8Array[] = [];
  if (options.geoKeys) {
    const doubles = options.geoDoubles ?? [];
    const keys = [
      ...options.geoKeys.map(([id, value]) => [id, 0, 1, value]),
      ...doubles.map(([id], i) => [id, 34736, 1, i]),
    ].sort((a, b) => a[0]! - b[0]!);
    records.push(geoKeyDirectory(keys));
    if (doubles.length > 0) {
      const data = new Uint8Array(8 * doubles.length);
      doubles.forEach(([, v], i) => new DataView(data.buffer).setFloat64(8 * i, v, true));
      records.push(projectionRecord(34736, data));
    }
  } else if (options.linearUnitEpsg) {
    records.push(geoKeysRecord(options.linearUnitEpsg, options.projectedCrsEpsg ?? 2263));
  }
  if (options.wkt !== undefined)
    records.push(projectionRecord(2112, new TextEncoder().encode(`${options.wkt}\0`)));
  const vlr = new Uint8Array(records.reduce((n, r) => n + r.byteLength, 0));
  records.reduce((at, r) => (vlr.set(r, at), at + r.byteLength), 0);
  const offsetToPoints = headerBytes + vlr.byteLength;
  const n = cloud.x.length;
  const out = new Uint8Array(offsetToPoints + n * recordBytes);
  const view = new DataView(out.buffer);
  out.set(new TextEncoder().encode('LASF'), 0);
  view.setUint8(24, 1);
  view.setUint8(25, minor);
  view.setUint16(94, headerBytes, true);
  view.setUint32(96, offsetToPoints, true);
  view.setUint32(100, records.length, true);
  // Global encoding bit 4: the CRS is WKT (LAS 1.4).
  if (options.wkt !== undefined && minor === 4) view.setUint16(6, 16, true);
  view.setUint8(104, format);
  view.setUint16(105, recordBytes, true);
  view.setUint32(107, format >= 6 ? 0 : n, true);
  const scale = options.scale ?? 0.001;
  const min = (a: Float64Array) => a.reduce((m, v) => Math.min(m, v), Infinity);
  const max = (a: Float64Array) => a.reduce((m, v) => Math.max(m, v), -Infinity);
  const offsets = [Math.floor(min(cloud.x)), Math.floor(min(cloud.y)), Math.floor(min(cloud.z))];
  [scale, scale, scale].forEach((s, i) => view.setFloat64(131 + 8 * i, s, true));
  offsets.forEach((o, i) => view.setFloat64(155 + 8 * i, o, true));
  const bounds = [max(cloud.x), min(cloud.x), max(cloud.y), min(cloud.y), max(cloud.z), min(cloud.z)];
  bounds.forEach((b, i) => view.setFloat64(179 + 8 * i, b, true));
  if (minor === 4) view.setBigUint64(247, BigInt(n), true);
  out.set(vlr, headerBytes);
  for (let k = 0; k < n; k++) {
    const at = offsetToPoints + k * recordBytes;
    view.setInt32(at, Math.round(((cloud.x[k] as number) - (offsets[0] as number)) / scale), true);
    view.setInt32(at + 4, Math.round(((cloud.y[k] as number) - (offsets[1] as number)) / scale), true);
    view.setInt32(at + 8, Math.round(((cloud.z[k] as number) - (offsets[2] as number)) / scale), true);
    if (format === 2) [1000, 2000, 3000].forEach((c, i) => view.setUint16(at + 20 + 2 * i, c, true));
  }
  return out;
}

function geoKeysRecord(unitEpsg: number, projectedCrsEpsg: number): Uint8Array {
  return geoKeyDirectory([
    [1024, 0, 1, 1], // projected model
    [3072, 0, 1, projectedCrsEpsg],
    [3076, 0, 1, unitEpsg],
  ]);
}

/** GeoKeyDirectory: header (1, 1, 0, keyCount) then keys (id, location, count, value or index). */
function geoKeyDirectory(keys: readonly (readonly number[])[]): Uint8Array {
  const shorts = [1, 1, 0, keys.length, ...keys.flat()];
  const data = new Uint8Array(shorts.length * 2);
  const dv = new DataView(data.buffer);
  shorts.forEach((s, i) => dv.setUint16(2 * i, s, true));
  return projectionRecord(34735, data);
}

function projectionRecord(recordId: number, data: Uint8Array): Uint8Array {
  const record = new Uint8Array(54 + data.byteLength);
  const rv = new DataView(record.buffer);
  record.set(new TextEncoder().encode('LASF_Projection'), 2);
  rv.setUint16(18, recordId, true);
  rv.setUint16(20, data.byteLength, true);
  record.set(data, 54);
  return record;
}

/**
 * A smooth random height field of one-sigma `sigma` m whose correlation falls as exp(−r²/2L²)
 * (spectral synthesis: `waves` cosines with Gaussian wave vectors of scale 1/L, random phases):
 * the spatially correlated error of a capture. Evaluated on a lattice of L/10 and interpolated
 * bilinearly (the field is smooth at that scale), so a dense cloud costs little.
 */
export function correlatedField(
  random: () => number,
  sigma: number,
  length: number,
  waves = 48,
): (x: number, y: number) => number {
  const kx = Float64Array.from({ length: waves }, () => gaussian(random) / length);
  const ky = Float64Array.from({ length: waves }, () => gaussian(random) / length);
  const phase = Float64Array.from({ length: waves }, () => 2 * Math.PI * random());
  const amplitude = sigma * Math.sqrt(2 / waves);
  const exact = (x: number, y: number) => {
    let z = 0;
    for (let i = 0; i < waves; i++)
      z += Math.cos((kx[i] as number) * x + (ky[i] as number) * y + (phase[i] as number));
    return amplitude * z;
  };
  const step = length / 10;
  const lattice = new Map<string, number>();
  const at = (i: number, j: number) => {
    const key = `${i},${j}`;
    let value = lattice.get(key);
    if (value === undefined) lattice.set(key, (value = exact(i * step, j * step)));
    return value;
  };
  return (x, y) => {
    const i = Math.floor(x / step);
    const j = Math.floor(y / step);
    const u = x / step - i;
    const v = y / step - j;
    return (
      (1 - u) * (1 - v) * at(i, j) +
      u * (1 - v) * at(i + 1, j) +
      (1 - u) * v * at(i, j + 1) +
      u * v * at(i + 1, j + 1)
    );
  };
}

/** The errors of one capture, drawn from an error profile: applied to a clean surface and cloud. */
export interface CaptureErrors {
  /** Vertical offset of the whole model (m). */
  datum: number;
  /** Relative scale error of the model, about (cx, cy, 0). */
  scale: number;
  /** Dome (m at `domeRadius` from the centre). */
  dome: number;
  domeRadius: number;
  correlated: (x: number, y: number) => number;
  cx: number;
  cy: number;
}

/** The cloud as a capture with `errors` would record it. */
export function withErrors(cloud: Cloud, errors: CaptureErrors): Cloud {
  const n = cloud.x.length;
  const out: Cloud = { x: new Float64Array(n), y: new Float64Array(n), z: new Float64Array(n) };
  const k = 1 + errors.scale;
  for (let i = 0; i < n; i++) {
    const x = cloud.x[i] as number;
    const y = cloud.y[i] as number;
    const r2 = (x - errors.cx) ** 2 + (y - errors.cy) ** 2;
    const z =
      (cloud.z[i] as number) +
      errors.correlated(x, y) +
      (errors.dome * r2) / errors.domeRadius ** 2 +
      errors.datum;
    out.x[i] = errors.cx + k * (x - errors.cx);
    out.y[i] = errors.cy + k * (y - errors.cy);
    out.z[i] = k * z;
  }
  return out;
}
