// The LAS public header block (ASPRS LAS 1.2 r2011, 1.3 R11, 1.4 R15), read field by field.
// Offsets are from the specifications' header tables; LAS is little-endian throughout.
import { EngineError } from '../errors.ts';
import { MAX_LAS_PREAMBLE_BYTES, MAX_POINT_COUNT } from '../limits.ts';
import type { Bounds3 } from '../types.ts';

/** Minimum record length of each point data record format (LAS 1.4 R15, tables 7–17). */
export const LAS_RECORD_BYTES: readonly number[] = [20, 28, 26, 34, 57, 63, 30, 36, 38, 59, 67];

/** Byte offset of the 16-bit red, green, blue fields, for the formats that carry colour. */
export const LAS_RGB_OFFSET: Readonly<Record<number, number>> = { 2: 20, 3: 28, 5: 28, 7: 30, 8: 30, 10: 30 };

/** Size of the public header block by minor version. */
const HEADER_BYTES: Readonly<Record<number, number>> = { 0: 227, 1: 227, 2: 227, 3: 235, 4: 375 };

export interface LasHeader {
  readonly versionMinor: number;
  readonly headerBytes: number;
  readonly pointDataOffset: number;
  readonly vlrCount: number;
  readonly pointFormat: number;
  /** Bits 6–7 of the format byte, set by LASzip on compressed files. */
  readonly compressedFlag: boolean;
  /** Global encoding bit 4 (LAS 1.4): the CRS is the WKT record, and GeoTIFF keys are not to be used. */
  readonly wktFlag: boolean;
  readonly recordBytes: number;
  readonly pointCount: number;
  readonly scale: readonly [number, number, number];
  readonly offset: readonly [number, number, number];
  readonly bounds: Bounds3;
}

export function parseLasHeader(bytes: Uint8Array, file: string, fileSize?: number): LasHeader {
  const malformed = (what: string): never => {
    throw new EngineError('malformed', `${file}: ${what}`, file);
  };
  if (bytes.byteLength < 227) {
    throw new EngineError(
      'truncated',
      `${file}: the file ends inside the LAS header (${bytes.byteLength} bytes).`,
      file,
    );
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const major = view.getUint8(24);
  const minor = view.getUint8(25);
  if (major !== 1 || minor > 4) {
    throw new EngineError(
      'unsupported_format',
      `${file}: LAS version ${major}.${minor} is not 1.0 to 1.4.`,
      file,
    );
  }
  const headerBytes = view.getUint16(94, true);
  const minimumHeader = HEADER_BYTES[minor] ?? 227;
  if (headerBytes < minimumHeader) {
    malformed(
      `the LAS ${major}.${minor} header states ${headerBytes} bytes; the specification needs ${minimumHeader}.`,
    );
  }
  if (bytes.byteLength < minimumHeader) {
    throw new EngineError('truncated', `${file}: the file ends inside the LAS header.`, file);
  }
  const pointDataOffset = view.getUint32(96, true);
  if (pointDataOffset < headerBytes)
    malformed(`the offset to point data (${pointDataOffset}) lies inside the header.`);
  if (pointDataOffset > MAX_LAS_PREAMBLE_BYTES) {
    throw new EngineError(
      'too_large',
      `${file}: ${pointDataOffset} bytes of header and records precede the points; the engine reads at most ${MAX_LAS_PREAMBLE_BYTES}.`,
      file,
    );
  }
  const formatByte = view.getUint8(104);
  const pointFormat = formatByte & 0x3f;
  const recordBytes = view.getUint16(105, true);
  const minimumRecord = LAS_RECORD_BYTES[pointFormat];
  if (minimumRecord === undefined)
    malformed(`point data record format ${pointFormat} does not exist (0–10).`);
  if (pointFormat > 5 && minor < 4)
    malformed(`point format ${pointFormat} needs LAS 1.4; the file says 1.${minor}.`);
  if (recordBytes < (minimumRecord ?? 0)) {
    malformed(`format ${pointFormat} records need ${minimumRecord} bytes; the header states ${recordBytes}.`);
  }
  const pointCount = readPointCount(view, minor, file);
  const f64 = (at: number) => view.getFloat64(at, true);
  const scale = [f64(131), f64(139), f64(147)] as const;
  const offset = [f64(155), f64(163), f64(171)] as const;
  if (scale.some((s) => !Number.isFinite(s) || s === 0))
    malformed('a coordinate scale factor is zero or not a number.');
  if (offset.some((o) => !Number.isFinite(o))) malformed('a coordinate offset is not a number.');
  const bounds: Bounds3 = {
    maxX: f64(179),
    minX: f64(187),
    maxY: f64(195),
    minY: f64(203),
    maxZ: f64(211),
    minZ: f64(219),
  };
  if (Object.values(bounds).some((v) => !Number.isFinite(v))) malformed('a header bound is not a number.');
  if (
    pointCount > 0 &&
    (bounds.minX > bounds.maxX || bounds.minY > bounds.maxY || bounds.minZ > bounds.maxZ)
  ) {
    malformed('the header bounds have a minimum above the maximum.');
  }
  const compressedFlag = (formatByte & 0xc0) !== 0;
  // A LAZ file's points take fewer bytes than their records; its chunk table is checked instead.
  if (!compressedFlag && fileSize !== undefined && pointDataOffset + pointCount * recordBytes > fileSize) {
    const fit = Math.max(0, Math.floor((fileSize - pointDataOffset) / recordBytes));
    throw new EngineError(
      'truncated',
      `${file}: declares ${pointCount} points but its ${fileSize} bytes hold at most ${fit}; the file is cut short.`,
      file,
    );
  }
  return {
    versionMinor: minor,
    headerBytes,
    pointDataOffset,
    vlrCount: view.getUint32(100, true),
    pointFormat,
    compressedFlag,
    wktFlag: minor >= 4 && (view.getUint16(6, true) & 16) !== 0,
    recordBytes,
    pointCount,
    scale,
    offset,
    bounds,
  };
}

/** LAS 1.4 keeps a 64-bit count at 247; the legacy 32-bit count at 107 is 0 for formats 6–10. */
function readPointCount(view: DataView, minor: number, file: string): number {
  const legacy = view.getUint32(107, true);
  const count = minor >= 4 ? view.getBigUint64(247, true) : BigInt(legacy);
  const chosen = minor >= 4 && count === 0n ? BigInt(legacy) : count;
  if (chosen > BigInt(MAX_POINT_COUNT)) {
    throw new EngineError(
      'too_large',
      `${file}: declares ${chosen} points; the engine reads at most ${MAX_POINT_COUNT}.`,
      file,
    );
  }
  return Number(chosen);
}
