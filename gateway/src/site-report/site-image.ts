// The picture of a site on its client page: the latest scene's point cloud, read with the
// measurement engine's readers, rasterised top-down (highest point per cell), coloured by height
// and shaded by a north-west light, with each measured region outlined in its own colour. Pure
// computation on bytes in, PNG bytes out (pngjs encodes); fetching the cloud is the caller's.
import { openPointCloud, type ByteSource } from '@fieldops/measure-engine';
import { PNG } from 'pngjs';

/** Colours of region outlines, in table order; the page's legend uses the same list. */
export const OUTLINE_COLOURS = ['#d01c8b', '#1b1f24', '#e66101', '#5e3c99', '#0571b0'] as const;
export const outlineColour = (index: number): string => OUTLINE_COLOURS[index % OUTLINE_COLOURS.length]!;

/** Low → high: the height ramp (also drawn as the page's legend). */
export const HEIGHT_RAMP = ['#2c7bb6', '#abd9e9', '#ffffbf', '#fdae61', '#d7191c'] as const;
const EMPTY = [236, 239, 243] as const;
const MAX_SIDE = 720;

export interface SiteExtent {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export interface SiteImage {
  png: Buffer;
  width: number;
  height: number;
  /** Heights the ramp spans, metres. */
  minZ: number;
  maxZ: number;
}

/** A region to outline: its polygon in metres, in the cloud's plan coordinates. */
export type Outline = readonly (readonly [number, number])[];

interface Grid {
  width: number;
  height: number;
  cell: number;
  z: Float64Array;
  extent: SiteExtent;
  /** Image pixels per grid cell (a sparse cloud gets coarse cells, drawn larger). */
  scale: number;
}

/**
 * Cells about as large as the points' spacing (so most hold a point), at most MAX_SIDE across;
 * the image is the grid scaled up by a whole factor towards MAX_SIDE.
 */
function gridFor(extent: SiteExtent, pointCount: number): Grid {
  const spanX = Math.max(extent.maxX - extent.minX, 1e-6);
  const spanY = Math.max(extent.maxY - extent.minY, 1e-6);
  const spacing = Math.sqrt((spanX * spanY) / Math.max(1, pointCount));
  const cell = Math.max(Math.max(spanX, spanY) / MAX_SIDE, spacing * 1.5);
  const width = Math.max(1, Math.ceil(spanX / cell));
  const height = Math.max(1, Math.ceil(spanY / cell));
  const scale = Math.max(1, Math.floor(MAX_SIDE / Math.max(width, height)));
  return { width, height, cell, z: new Float64Array(width * height).fill(-Infinity), extent, scale };
}

/** Highest point per cell (a roof or a pile's top is what is seen from above). */
async function rasterise(sources: readonly ByteSource[], grid: Grid): Promise<void> {
  for (const source of sources) {
    const reader = await openPointCloud(source);
    const h = reader.header.horizontalUnit.metres;
    const v = reader.header.verticalUnit.metres;
    for await (const chunk of reader.points()) {
      for (let k = 0; k < chunk.count; k++) {
        const col = Math.floor((chunk.x[k]! * h - grid.extent.minX) / grid.cell);
        const row = Math.floor((grid.extent.maxY - chunk.y[k]! * h) / grid.cell);
        if (col < 0 || row < 0 || col >= grid.width || row >= grid.height) continue;
        const at = row * grid.width + col;
        const z = chunk.z[k]! * v;
        if (z > grid.z[at]!) grid.z[at] = z;
      }
    }
  }
}

/** Empty cells take the mean of filled neighbours, a few passes, so a sparse cloud reads as a surface. */
function fillGaps(grid: Grid, passes = 3): void {
  const { width, height, z } = grid;
  for (let pass = 0; pass < passes; pass++) {
    const next = Float64Array.from(z);
    for (let row = 0; row < height; row++) {
      for (let col = 0; col < width; col++) {
        if (z[row * width + col] !== -Infinity) continue;
        let sum = 0;
        let n = 0;
        for (const [dr, dc] of NEIGHBOURS) {
          const r = row + dr;
          const c = col + dc;
          if (r < 0 || c < 0 || r >= height || c >= width) continue;
          const value = z[r * width + c]!;
          if (value !== -Infinity) {
            sum += value;
            n++;
          }
        }
        if (n >= 2) next[row * width + col] = sum / n;
      }
    }
    z.set(next);
  }
}

const NEIGHBOURS = [
  [-1, 0],
  [1, 0],
  [0, -1],
  [0, 1],
  [-1, -1],
  [-1, 1],
  [1, -1],
  [1, 1],
] as const;

const rgbOf = (hex: string): [number, number, number] => [
  parseInt(hex.slice(1, 3), 16),
  parseInt(hex.slice(3, 5), 16),
  parseInt(hex.slice(5, 7), 16),
];

const STOPS = HEIGHT_RAMP.map(rgbOf);

function rampAt(t: number): [number, number, number] {
  const stops = STOPS;
  const x = Math.min(1, Math.max(0, t)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  const f = x - i;
  const [a, b] = [stops[i]!, stops[i + 1]!];
  return [0, 1, 2].map((j) => a[j]! + (b[j]! - a[j]!) * f) as [number, number, number];
}

/** Towards the light: north-west (x west is -, y north is +), 45° up; unit length. */
const LIGHT = [-0.5, 0.5, Math.SQRT1_2] as const;

/** Lambert shading from the north-west at 45°, from the height gradient. */
function shadeAt(grid: Grid, row: number, col: number): number {
  const { width, height, z, cell } = grid;
  const at = (r: number, c: number) => {
    const value = z[Math.min(height - 1, Math.max(0, r)) * width + Math.min(width - 1, Math.max(0, c))]!;
    return value === -Infinity ? z[row * width + col]! : value;
  };
  const dzdx = (at(row, col + 1) - at(row, col - 1)) / (2 * cell);
  const dzdy = (at(row - 1, col) - at(row + 1, col)) / (2 * cell);
  const normal = [-dzdx, -dzdy, 1];
  const length = Math.hypot(...normal);
  const dot = (normal[0]! * LIGHT[0] + normal[1]! * LIGHT[1] + normal[2]! * LIGHT[2]) / length;
  return 0.45 + (0.55 * Math.max(0, dot)) / LIGHT[2]; // flat ground is 1: its own colour
}

/** One pixel as the PNG's RGBA bytes read as a little-endian 32-bit word. */
const word = (rgb: readonly number[]): number =>
  (Math.min(255, Math.round(rgb[0]!)) |
    (Math.min(255, Math.round(rgb[1]!)) << 8) |
    (Math.min(255, Math.round(rgb[2]!)) << 16) |
    (255 << 24)) >>>
  0;

function paint(grid: Grid, png: PNG): { minZ: number; maxZ: number } {
  let minZ = Infinity;
  let maxZ = -Infinity;
  for (const value of grid.z) {
    if (value === -Infinity) continue;
    minZ = Math.min(minZ, value);
    maxZ = Math.max(maxZ, value);
  }
  const span = maxZ - minZ || 1;
  const pixels = new Uint32Array(png.data.buffer, png.data.byteOffset, png.width * png.height);
  const { scale } = grid;
  for (let row = 0; row < grid.height; row++) {
    for (let col = 0; col < grid.width; col++) {
      const value = grid.z[row * grid.width + col]!;
      const shade = value === -Infinity ? 1 : Math.min(1.15, shadeAt(grid, row, col));
      const rgb = value === -Infinity ? EMPTY : rampAt((value - minZ) / span).map((c) => c * shade);
      const colour = word(rgb);
      for (let dy = 0; dy < scale; dy++) {
        const start = (row * scale + dy) * png.width + col * scale;
        pixels.fill(colour, start, start + scale);
      }
    }
  }
  return { minZ, maxZ };
}

function setPixel(png: PNG, x: number, y: number, rgb: readonly number[]): void {
  if (x < 0 || y < 0 || x >= png.width || y >= png.height) return;
  const at = (y * png.width + x) * 4;
  png.data[at] = Math.min(255, Math.round(rgb[0]!));
  png.data[at + 1] = Math.min(255, Math.round(rgb[1]!));
  png.data[at + 2] = Math.min(255, Math.round(rgb[2]!));
  png.data[at + 3] = 255;
}

/** A line three pixels wide between two points, in pixel coordinates. */
function line(png: PNG, from: [number, number], to: [number, number], rgb: readonly number[]): void {
  const steps = Math.max(1, Math.ceil(Math.hypot(to[0] - from[0], to[1] - from[1])));
  for (let s = 0; s <= steps; s++) {
    const x = Math.round(from[0] + ((to[0] - from[0]) * s) / steps);
    const y = Math.round(from[1] + ((to[1] - from[1]) * s) / steps);
    for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) setPixel(png, x + dx, y + dy, rgb);
  }
}

function outline(png: PNG, grid: Grid, polygon: Outline, colour: string): void {
  const pixel = ([x, y]: readonly [number, number]): [number, number] => [
    ((x - grid.extent.minX) / grid.cell) * grid.scale,
    ((grid.extent.maxY - y) / grid.cell) * grid.scale,
  ];
  const rgb = rgbOf(colour);
  polygon.forEach((vertex, i) => line(png, pixel(vertex), pixel(polygon[(i + 1) % polygon.length]!), rgb));
}

export async function renderSiteImage(
  sources: readonly ByteSource[],
  extent: SiteExtent,
  pointCount: number,
  /** In table order; null for a region without a known polygon (its colour is skipped, not reused). */
  outlines: readonly (Outline | null)[],
): Promise<SiteImage> {
  const grid = gridFor(extent, pointCount);
  await rasterise(sources, grid);
  fillGaps(grid);
  const png = new PNG({ width: grid.width * grid.scale, height: grid.height * grid.scale });
  const { minZ, maxZ } = paint(grid, png);
  outlines.forEach((polygon, i) => {
    if (polygon) outline(png, grid, polygon, outlineColour(i));
  });
  // No per-line filter search: the picture is flat blocks, which deflate packs well unfiltered.
  return { png: PNG.sync.write(png, { filterType: 0 }), width: png.width, height: png.height, minZ, maxZ };
}
