// The datum rule: a WGS 84 position (a toe drawn on a map) is placed through the CRS's definition.
// When that definition carries no transformation to WGS 84 (NAD83 and ETRS89 definitions state
// +towgs84=0,0,0: the EPSG dataset's "null transformation"), the position is placed as if WGS 84
// and the CRS's datum were the same, and the snapshot says so with the size of that assumption
// where it is known. Volumes are not affected (a whole region moves by the offset together); where
// a toe lies on the ground is.
import type { DatumStatement } from '../types.ts';

/** proj4's datum types (proj4/lib/constants/values.js). */
const PJD_3PARAM = 1;
const PJD_7PARAM = 2;
const PJD_GRIDSHIFT = 3;

export interface DatumFacts {
  /** The geographic CRS's name ("NAD83", "ETRS89", "NAD83(HARN)"). */
  readonly geographicName: string;
  /** The datum's name as the WKT gives it, when known ("North_American_Datum_1983"). */
  readonly datumName?: string;
  /** proj4's parsed datum: its type and its Helmert parameters. */
  readonly datumType?: number;
  readonly datumParams?: readonly number[];
  /** Accuracy (m) the EPSG dataset gives the definition's transformation to WGS 84. */
  readonly accuracyM: number | null;
}

const YEAR_MS = 365.25 * 24 * 3600 * 1000;

/** ETRS89 is fixed to the Eurasian plate; ITRF (and WGS 84) move about 2.5 cm a year against it since 1989.0. */
export function etrs89OffsetM(at: Date): number {
  const years = (at.getTime() - Date.UTC(1989, 0, 1)) / YEAR_MS;
  return Math.round(0.025 * years * 100) / 100;
}

export function datumStatement(facts: DatumFacts, at: Date = new Date()): DatumStatement | 'grid' {
  const name = facts.geographicName;
  const words = `${name} ${facts.datumName ?? ''}`;
  if (facts.datumType === PJD_GRIDSHIFT) return 'grid';
  const params = facts.datumParams ?? [];
  const transformed =
    (facts.datumType === PJD_3PARAM || facts.datumType === PJD_7PARAM) && params.some((p) => p !== 0);
  if (
    /^WGS[ _]?84\b|World[ _]Geodetic[ _]System[ _]1984/i.test(name) ||
    /^WGS[ _]?1984$/i.test(facts.datumName ?? '')
  ) {
    return {
      name,
      rule: 'wgs84',
      statement: `The cloud's CRS is on WGS 84: positions stated in WGS 84 are placed without a datum assumption.`,
    };
  }
  if (transformed) {
    const accuracy = facts.accuracyM ?? undefined;
    return {
      name,
      rule: 'transformed',
      ...(accuracy !== undefined ? { offsetUpToM: accuracy } : {}),
      statement: `WGS 84 positions are transformed to ${name} with the definition's Helmert parameters${accuracy !== undefined ? `, good to about ${accuracy} m` : ' (their accuracy is not stated)'}.`,
    };
  }
  if (/NAD[ _]?83|North[ _]American[ _]Datum[ _]1983/i.test(words)) {
    return {
      name,
      rule: 'taken-as-wgs84',
      offsetUpToM: 2,
      statement: `${name} is taken as WGS 84 (no transformation is applied): in the conterminous US the two differ by about 1–2 m today (NAD83(2011) against WGS 84 (G2139)), so a toe stated in WGS 84 lands up to about 2 m from where it was drawn.`,
    };
  }
  if (/ETRS[ _]?89|European[ _]Terrestrial[ _]Reference[ _]System[ _]1989/i.test(words)) {
    const offset = etrs89OffsetM(at);
    return {
      name,
      rule: 'taken-as-wgs84',
      offsetUpToM: offset,
      statement: `${name} is taken as WGS 84 (no transformation is applied): ETRS89 moves with Europe about 2.5 cm a year against WGS 84 since 1989, about ${offset} m in ${at.getUTCFullYear()}, so a toe stated in WGS 84 lands about that far from where it was drawn.`,
    };
  }
  return {
    name,
    rule: 'taken-as-wgs84',
    ...(facts.accuracyM !== null ? { offsetUpToM: facts.accuracyM } : {}),
    statement: `${name} is taken as WGS 84 (no transformation is applied)${facts.accuracyM !== null ? `; the EPSG dataset gives that assumption an accuracy of about ${facts.accuracyM} m` : '; how far apart the two are is not known to the platform'}.`,
  };
}
