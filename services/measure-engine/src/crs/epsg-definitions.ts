// EPSG definitions from `epsg-index` (a machine-readable index of the EPSG dataset, rebuilt from
// epsg.io and republished: 2.0.0 in 2025): one JSON file per code with the CRS's kind, name, OGC
// WKT 1, PROJ string, unit and the accuracy of its transformation to WGS 84. A file is read only
// when a point cloud names its code, so the 8,000 definitions are never all in memory.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface EpsgDefinition {
  readonly code: number;
  /** 'CRS-PROJCRS', 'CRS-GEOGCRS', 'CRS-VERTCRS', 'CRS-COMPOUNDCRS', … */
  readonly kind: string;
  readonly name: string;
  /** OGC WKT 1, when the dataset has one (a few definitions have none). */
  readonly wkt: string | null;
  readonly proj4: string;
  /** The unit in words: 'metre', 'US survey foot', 'foot', 'degree (…)'. */
  readonly unit: string;
  /** Accuracy (m) of the definition's transformation to WGS 84, when the dataset states one. */
  readonly accuracy: number | null;
}

let folder: string | undefined;
const cache = new Map<number, EpsgDefinition | null>();

function definitionsFolder(): string {
  folder ??= join(dirname(createRequire(import.meta.url).resolve('epsg-index/package.json')), 's');
  return folder;
}

/** The EPSG dataset's definition of `code`, or null when the dataset has no such code. */
export function epsgDefinition(code: number): EpsgDefinition | null {
  if (!Number.isInteger(code) || code <= 0 || code >= 1_000_000) return null;
  const known = cache.get(code);
  if (known !== undefined) return known;
  let found: EpsgDefinition | null = null;
  try {
    const raw = JSON.parse(readFileSync(join(definitionsFolder(), `${code}.json`), 'utf8')) as {
      kind: string;
      name: string;
      wkt: string | null;
      proj4: string;
      unit: string;
      accuracy: number | string | null;
    };
    const accuracy = raw.accuracy === null || raw.accuracy === '' ? null : Number(raw.accuracy);
    found = {
      code,
      kind: raw.kind,
      name: raw.name,
      wkt: raw.wkt,
      proj4: raw.proj4,
      unit: raw.unit,
      accuracy: accuracy !== null && Number.isFinite(accuracy) ? accuracy : null,
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  cache.set(code, found);
  return found;
}
