// Export formats: what a project's scenes can be exported to on this platform. A scene's own
// stored format is always offered (served as stored); a conversion is offered only when the
// program that performs it is installed on this host (spec: a codec that is not installed is
// absent from the list).
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { capture } from '@fieldops/proto';

interface FormatSpec {
  id: string;
  name: string;
  contentType: string;
}

const FORMATS: Record<string, FormatSpec> = {
  ply: { id: 'ply', name: 'PLY point cloud', contentType: 'application/x-ply' },
  las: { id: 'las', name: 'LAS point cloud', contentType: 'application/vnd.las' },
  laz: { id: 'laz', name: 'LAZ compressed point cloud', contentType: 'application/vnd.laszip' },
  xyz: { id: 'xyz', name: 'XYZ text points', contentType: 'text/plain' },
  zip: { id: 'zip', name: 'Reconstruction outputs (zip)', contentType: 'application/zip' },
  geotiff: { id: 'geotiff', name: 'GeoTIFF raster', contentType: 'image/tiff' },
};

/** Conversions and the program each needs: PDAL translates point clouds, GDAL rasters. */
const CONVERSIONS: { from: string[]; to: string[]; codec: string }[] = [
  { from: ['ply', 'las', 'laz'], to: ['las', 'laz', 'ply', 'xyz'], codec: 'pdal' },
  { from: ['zip'], to: ['geotiff'], codec: 'gdal_translate' },
];

const installed = new Map<string, boolean>();

/** Whether an executable of this name is on PATH (checked once per process). */
export function isInstalled(program: string, path = process.env['PATH'] ?? ''): boolean {
  const known = installed.get(program);
  if (known !== undefined) return known;
  const found = path
    .split(delimiter)
    .filter(Boolean)
    .some((dir) => {
      try {
        accessSync(join(dir, program), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
  installed.set(program, found);
  return found;
}

/** The formats scenes stored in `stored` formats can be exported to, each with how. */
export function exportFormatsOf(stored: Iterable<string>): capture.ExportFormat[] {
  const offered = new Map<string, capture.ExportFormat>();
  const native = new Set(stored);
  for (const id of native) {
    const spec = FORMATS[id];
    if (spec) offered.set(id, { ...spec, via: 'native' });
  }
  for (const conversion of CONVERSIONS) {
    if (!conversion.from.some((format) => native.has(format)) || !isInstalled(conversion.codec)) continue;
    for (const id of conversion.to) {
      const spec = FORMATS[id];
      if (spec && !offered.has(id)) offered.set(id, { ...spec, via: conversion.codec });
    }
  }
  return [...offered.values()].sort((a, b) => a.id.localeCompare(b.id));
}
