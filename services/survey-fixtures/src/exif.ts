// EXIF for the synthetic photos, written in JavaScript (piexifjs) so CI needs no exiftool: the
// camera (focal length with the focal-plane resolution, which gives the focal length in pixels
// exactly), the camera's make and model (a survey may mix two), when the photo was taken
// (DateTimeOriginal with OffsetTimeOriginal, as DJI writes them) and, when given, the GPS position
// a drone records with each photo.
import piexif from 'piexifjs';
import type { Geodetic } from '@fieldops/measure-engine';

type Rational = [number, number];

/** Degrees as EXIF's degrees, minutes, seconds (to 1/10000 s, a few millimetres). */
function dms(degrees: number): Rational[] {
  const abs = Math.abs(degrees);
  const d = Math.floor(abs);
  const minutes = (abs - d) * 60;
  const m = Math.floor(minutes);
  const s = Math.round((minutes - m) * 60 * 10000);
  return [
    [d, 1],
    [m, 1],
    [s, 10000],
  ];
}

export interface PhotoExif {
  focalPx: number;
  width: number;
  height: number;
  position?: Geodetic;
  /** EXIF Model; the make is always 'fieldops'. */
  model?: string;
  /** Local time the photo was taken, `YYYY-MM-DDTHH:MM:SS`, and its UTC offset (`+02:00`). */
  takenAt?: { local: string; offset?: string };
}

/** OffsetTimeOriginal (EXIF 2.31) is newer than piexifjs's tag table: teach it the tag. */
const OFFSET_TIME_ORIGINAL = 0x9011;
piexif.TAGS.Exif[OFFSET_TIME_ORIGINAL] ??= { name: 'OffsetTimeOriginal', type: 'Ascii' };

/** EXIF's date form, `YYYY:MM:DD HH:MM:SS`. */
const exifDate = (local: string): string => local.replace(/^(\d{4})-(\d{2})-(\d{2})T/, '$1:$2:$3 ');

function dateTags(takenAt: PhotoExif['takenAt']): Record<number, string> {
  const tags: Record<number, string> = {};
  if (!takenAt) return tags;
  tags[piexif.ExifIFD['DateTimeOriginal']!] = exifDate(takenAt.local);
  if (takenAt.offset) tags[OFFSET_TIME_ORIGINAL] = takenAt.offset;
  return tags;
}

/** Focal length of the synthetic camera's lens; the focal-plane resolution makes up the pixels. */
const FOCAL_MM = 4.5;

export function withExif(jpeg: Uint8Array, exif: PhotoExif): Buffer {
  const pixelsPerCm = (exif.focalPx / FOCAL_MM) * 10;
  const gps = exif.position
    ? {
        [piexif.GPSIFD['GPSVersionID']!]: [2, 3, 0, 0],
        [piexif.GPSIFD['GPSLatitudeRef']!]: exif.position.lat >= 0 ? 'N' : 'S',
        [piexif.GPSIFD['GPSLatitude']!]: dms(exif.position.lat),
        [piexif.GPSIFD['GPSLongitudeRef']!]: exif.position.lon >= 0 ? 'E' : 'W',
        [piexif.GPSIFD['GPSLongitude']!]: dms(exif.position.lon),
        [piexif.GPSIFD['GPSAltitudeRef']!]: exif.position.alt >= 0 ? 0 : 1,
        [piexif.GPSIFD['GPSAltitude']!]: [Math.round(Math.abs(exif.position.alt) * 1000), 1000] as Rational,
      }
    : undefined;
  const bytes = piexif.dump({
    '0th': {
      [piexif.ImageIFD['Make']!]: 'fieldops',
      [piexif.ImageIFD['Model']!]: exif.model ?? 'synthetic survey camera',
    },
    Exif: {
      ...dateTags(exif.takenAt),
      [piexif.ExifIFD['FocalLength']!]: [FOCAL_MM * 1000, 1000] as Rational,
      [piexif.ExifIFD['FocalPlaneXResolution']!]: [Math.round(pixelsPerCm * 1000), 1000] as Rational,
      [piexif.ExifIFD['FocalPlaneYResolution']!]: [Math.round(pixelsPerCm * 1000), 1000] as Rational,
      [piexif.ExifIFD['FocalPlaneResolutionUnit']!]: 3,
      [piexif.ExifIFD['PixelXDimension']!]: exif.width,
      [piexif.ExifIFD['PixelYDimension']!]: exif.height,
    },
    ...(gps ? { GPS: gps } : {}),
  });
  return Buffer.from(piexif.insert(bytes, Buffer.from(jpeg).toString('binary')), 'binary');
}
