// The capture's photos on local disk for COLMAP, each checked first: a file that is not a readable
// JPEG or PNG is named to the caller before any reconstruction starts, and what COLMAP needs from
// EXIF is read here — the GPS position (to georeference the model) and the focal length in pixels
// (the camera intrinsics; COLMAP refines them while mapping) — and when the photo was taken
// (DateTimeOriginal, with OffsetTimeOriginal or OffsetTime when the camera wrote one).
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import exifr from 'exifr';
import type { BlobStore } from '@fieldops/kit/blobs';
import type { EngineFrame } from '../engine.port.ts';
import type { Geodetic } from '@fieldops/measure-engine';

export interface Photo {
  /** The file name COLMAP knows the photo by (under images/). */
  file: string;
  /** The name the caller gave the file, for messages. */
  label: string;
  width: number;
  height: number;
  position?: Geodetic;
  focalPx?: number;
  /** When the photo was taken, from EXIF (see takenAtOf). */
  takenAt?: TakenAt;
}

/**
 * An EXIF capture time as ISO 8601: `2015-10-16T10:23:45+02:00` when the camera wrote an offset,
 * else `2015-10-16T10:23:45` (the camera's local time; EXIF's DateTimeOriginal has no zone).
 */
export interface TakenAt {
  iso: string;
  hasOffset: boolean;
}

export class UnreadablePhoto extends Error {}

/** Width and height from a JPEG's start-of-frame marker; requires scan data and an end marker. */
function jpegSize(bytes: Buffer): { width: number; height: number } | undefined {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  let offset = 2;
  let size: { width: number; height: number } | undefined;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1]!;
    if (marker === 0xff) {
      offset++;
      continue;
    }
    const length = bytes.readUInt16BE(offset + 2);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame && offset + 9 <= bytes.length) {
      size = { height: bytes.readUInt16BE(offset + 5), width: bytes.readUInt16BE(offset + 7) };
    }
    if (marker === 0xda) {
      const ends = bytes.lastIndexOf(Buffer.from([0xff, 0xd9])) > offset;
      return size && size.width > 0 && size.height > 0 && ends ? size : undefined;
    }
    offset += 2 + length;
  }
  return undefined;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngSize(bytes: Buffer): { width: number; height: number } | undefined {
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return undefined;
  const size = { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  return size.width > 0 && size.height > 0 ? size : undefined;
}

/** Millimetres per EXIF FocalPlaneResolutionUnit. */
const UNIT_MM: Record<number, number> = { 2: 25.4, 3: 10, 4: 1, 5: 0.001 };

interface ExifFields {
  latitude?: number;
  longitude?: number;
  GPSAltitude?: number;
  GPSAltitudeRef?: Uint8Array | number;
  FocalLength?: number;
  FocalPlaneXResolution?: number;
  FocalPlaneResolutionUnit?: number;
  FocalLengthIn35mmFormat?: number;
  ExifImageWidth?: number;
}

interface DateFields {
  DateTimeOriginal?: string;
  OffsetTimeOriginal?: string;
  OffsetTime?: string;
}

const EXIF_DATE = /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/;
const EXIF_OFFSET = /^[+-]\d{2}:\d{2}$/;

/** DateTimeOriginal as ISO 8601, with the offset the camera wrote, when it wrote one. */
export function takenAtOf(fields: DateFields): TakenAt | undefined {
  const date = EXIF_DATE.exec(fields.DateTimeOriginal?.trim() ?? '');
  if (!date || date[1] === '0000') return undefined;
  const local = `${date[1]}-${date[2]}-${date[3]}T${date[4]}:${date[5]}:${date[6]}`;
  const offset = [fields.OffsetTimeOriginal, fields.OffsetTime]
    .map((o) => o?.trim())
    .find((o) => o && EXIF_OFFSET.test(o));
  return offset ? { iso: `${local}${offset}`, hasOffset: true } : { iso: local, hasOffset: false };
}

async function readTakenAt(bytes: Buffer): Promise<TakenAt | undefined> {
  const parsed = (await exifr
    .parse(bytes, {
      exif: true,
      tiff: true,
      reviveValues: false,
      pick: ['DateTimeOriginal', 'OffsetTimeOriginal', 'OffsetTime'],
    })
    .catch(() => undefined)) as DateFields | undefined;
  return parsed ? takenAtOf(parsed) : undefined;
}

function positionOf(exif: ExifFields): Geodetic | undefined {
  const { latitude, longitude, GPSAltitude } = exif;
  if (![latitude, longitude, GPSAltitude].every((v) => typeof v === 'number' && Number.isFinite(v))) {
    return undefined;
  }
  const ref = exif.GPSAltitudeRef instanceof Uint8Array ? exif.GPSAltitudeRef[0] : exif.GPSAltitudeRef;
  return { lat: latitude!, lon: longitude!, alt: ref === 1 ? -GPSAltitude! : GPSAltitude! };
}

/** Focal length in pixels: exact from the focal-plane resolution, else from the 35 mm equivalent. */
function focalOf(exif: ExifFields, width: number, height: number): number | undefined {
  const unitMm = UNIT_MM[exif.FocalPlaneResolutionUnit ?? 2];
  if (exif.FocalLength && exif.FocalPlaneXResolution && unitMm) {
    const native = exif.ExifImageWidth && exif.ExifImageWidth > 0 ? width / exif.ExifImageWidth : 1;
    return ((exif.FocalLength * exif.FocalPlaneXResolution) / unitMm) * native;
  }
  if (exif.FocalLengthIn35mmFormat) return (exif.FocalLengthIn35mmFormat / 36) * Math.max(width, height);
  return undefined;
}

async function readExif(bytes: Buffer): Promise<ExifFields> {
  const parsed = (await exifr
    .parse(bytes, { gps: true, exif: true, tiff: true, translateValues: false })
    .catch(() => undefined)) as ExifFields | undefined;
  return parsed ?? {};
}

/** Inspects one stored photo: its size, position, focal length and date; throws UnreadablePhoto. */
export async function inspectPhoto(path: string, file: string, label: string): Promise<Photo> {
  const bytes = await readFile(path);
  const size = jpegSize(bytes) ?? pngSize(bytes);
  if (!size) throw new UnreadablePhoto(`${label} is not a readable JPEG or PNG image`);
  const exif = await readExif(bytes);
  const position = positionOf(exif);
  const focalPx = focalOf(exif, size.width, size.height);
  const takenAt = await readTakenAt(bytes);
  return {
    file,
    label,
    ...size,
    ...(position ? { position } : {}),
    ...(focalPx ? { focalPx } : {}),
    ...(takenAt ? { takenAt } : {}),
  };
}

/** Streams a stored photo to `dir/file` (never the whole file in memory). */
export async function downloadPhoto(blobs: BlobStore, frame: EngineFrame, path: string): Promise<void> {
  const read = await blobs.get(frame.key);
  if (!read) throw new UnreadablePhoto(`${frame.name || frame.key} is no longer stored`);
  await pipeline(read.body, createWriteStream(path));
}

export const photoFile = (index: number, frame: EngineFrame): string =>
  `${String(index + 1).padStart(5, '0')}${/\.png$/i.test(frame.name) || frame.contentType === 'image/png' ? '.png' : '.jpg'}`;

export const imagesDir = (workDir: string): string => join(workDir, 'images');
