// Point clouds in the coordinate systems survey software writes, measured on the project's own
// generated yard (@fieldops/survey-fixtures/site: two piles of exactly known volume, trees and a
// building). The yard is placed inside each CRS's zone and written with proj4 from a PROJ string
// given here (not from the engine's resolver), in that CRS's own units; the engine must resolve
// the CRS from what the file states (an EPSG code alone, explicit keys, projection parameters, a
// WKT record), convert to metres, place WGS 84 toes through the projection, and measure each pile
// within its band and within 2 % of the truth. The whole capture must measure the same as the same
// points written in metres. A CRS the engine cannot resolve is refused with its name.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import proj4 from 'proj4';
import {
  SITE_PILES,
  SITE_TRUE_VOLUMES_M3,
  siteCloudProjected,
  toeAround,
} from '@fieldops/survey-fixtures/site';
import {
  bufferSource,
  epsgDefinition,
  isEngineError,
  measureRegions,
  measureSite,
  openPointCloud,
  projectedCloudFrame,
} from '../src/index.ts';
import type { CaptureAccuracy, CoordinateSystem, XY } from '../src/index.ts';
import { etrs89OffsetM } from '../src/crs/datum.ts';
import { las } from './point-clouds.ts';
import { sharedFile } from './shared-files.ts';
import { CA3, CA_ORIGIN, CASES, ETRS89_UTM32N_WKT, FOOT, US_FOOT, yardIn } from './crs-cases.ts';

const LIDAR_GCP: CaptureAccuracy = { sensor: 'lidar', control: 'gcp' };
/** The same points in metres, in a file that states no CRS: the reference for the whole capture. */
function metres(bytes: Uint8Array, unitM: number): Uint8Array {
  // Rewrite the header's scale and offset in metres: the same integer coordinates, in metres.
  const copy = bytes.slice();
  const view = new DataView(copy.buffer);
  for (let i = 0; i < 3; i++) {
    view.setFloat64(131 + 8 * i, view.getFloat64(131 + 8 * i, true) * unitM, true);
    view.setFloat64(155 + 8 * i, view.getFloat64(155 + 8 * i, true) * unitM, true);
  }
  for (let i = 0; i < 6; i++) view.setFloat64(179 + 8 * i, view.getFloat64(179 + 8 * i, true) * unitM, true);
  // No CRS records: the reference states nothing, so it is read as metres.
  view.setUint32(100, 0, true);
  return copy;
}

describe('point clouds in the coordinate systems survey software writes', () => {
  for (const c of CASES) {
    it(`${c.title}: resolves the CRS and its units, measures both piles and the whole capture`, async () => {
      const bytes = yardIn(c);
      const reader = await openPointCloud(bufferSource(bytes, 'yard.las'));
      const crs = reader.header.crs as CoordinateSystem;
      expect(crs.name).toMatch(c.expected.name);
      expect(crs.epsg).toBe(c.expected.epsg);
      expect(crs.datum.rule).toBe(c.expected.datum);
      expect(reader.header.horizontalUnit).toMatchObject({ name: c.expected.unit });
      expect(reader.header.horizontalUnit.metres).toBeCloseTo(c.unitM, 12);
      expect(reader.header.verticalUnit.metres).toBeCloseTo(c.unitM, 12);

      // Stated toes, drawn in WGS 84 around each pile, placed through the file's projection.
      const frame = projectedCloudFrame(crs, reader.header.verticalUnit);
      const toe = (p: (typeof SITE_PILES)['north']): XY[] =>
        toeAround(p, 3, 12, c.origin).map(({ lat, lng }) => {
          const [x, y] = frame.place(lat, lng);
          return [x, y];
        });
      const q = await measureRegions(
        bufferSource(bytes, 'yard.las'),
        [
          { id: 'north', polygon: toe(SITE_PILES.north) },
          { id: 'south', polygon: toe(SITE_PILES.south) },
        ],
        { accuracy: LIDAR_GCP },
      );
      for (const id of ['north', 'south'] as const) {
        const region = q.regions.find((r) => r.regionId === id)!;
        const truth = SITE_TRUE_VOLUMES_M3[id];
        expect(Math.abs(region.net - truth)).toBeLessThanOrEqual(region.bands.net!.plusMinus);
        expect(Math.abs(region.net - truth) / truth).toBeLessThan(0.02);
      }
      expect(q.capture.horizontalUnit.name).toBe(c.expected.unit);
      if (c.expected.datum !== 'wgs84') expect(q.disclosures).toContain(crs.datum.statement);
      expect(q.disclosures.join(' ')).not.toMatch(/taken as metres/);

      // The whole capture: the same as the same points stated in metres, and as dense.
      const whole = await measureSite(bufferSource(bytes, 'yard.las'), undefined, { accuracy: LIDAR_GCP });
      const reference = await measureSite(bufferSource(metres(bytes, c.unitM), 'metres.las'), undefined, {
        accuracy: LIDAR_GCP,
      });
      expect(Math.abs(whole.rollup.net - reference.rollup.net)).toBeLessThan(0.005 * reference.rollup.net);
      expect(whole.surface.pointDensityPerM2 / reference.surface.pointDensityPerM2).toBeCloseTo(1, 2);
      // The yard's spacing is 0.35 m: about 8.2 points a square metre, whatever the file's unit.
      expect(whole.surface.pointDensityPerM2).toBeGreaterThan(7);
      expect(whole.surface.pointDensityPerM2).toBeLessThan(9.5);
    });
  }
});

const ground = siteCloudProjected((lat, lon, alt) => {
  const [x, y] = proj4('EPSG:4326', CA3).forward([lon, lat]);
  return [x!, y!, alt / US_FOOT];
}, CA_ORIGIN);

async function refusal(
  file: Parameters<typeof las>[1],
  name = 'survey.las',
): Promise<{ code: string; message: string }> {
  try {
    await openPointCloud(bufferSource(las(ground, file), name));
  } catch (error) {
    if (isEngineError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('the file was accepted');
}

describe('what a file states about its CRS, and what is refused', () => {
  it('refuses a CRS the platform cannot resolve with a sentence naming it', async () => {
    expect(epsgDefinition(7000)).toBeNull();
    const unknownCode = await refusal({
      geoKeys: [
        [1024, 1],
        [3072, 7000],
      ],
    });
    expect(unknownCode.code).toBe('unsupported_format');
    expect(unknownCode.message).toMatch(
      /^survey\.las states its coordinates are in EPSG:7000, which the platform's EPSG definitions do not hold; reproject/,
    );
    const wkt = ETRS89_UTM32N_WKT.replace('Transverse_Mercator', 'Foo_Local_Grid').replace(
      'ETRS89 / UTM zone 32N',
      'Site grid 7',
    );
    const unknownMethod = await refusal({ minor: 4, wkt });
    expect(unknownMethod.code).toBe('unsupported_format');
    expect(unknownMethod.message).toContain('"Site grid 7"');
    const broken = await refusal({ minor: 4, wkt: 'PROJCS["cut short",GEOGCS[' });
    expect(broken.message).toMatch(/not well-formed OGC WKT/);
  });

  it('refuses a file whose unit key contradicts its EPSG code, and a geographic CRS', async () => {
    const contradiction = await refusal({
      geoKeys: [
        [1024, 1],
        [3072, 2227],
        [3076, 9001],
      ],
    });
    expect(contradiction.code).toBe('malformed');
    expect(contradiction.message).toMatch(
      /EPSG:2227 NAD83 \/ California zone 3 \(ftUS\), in us-survey-foot, but its linear-unit key says metre/,
    );
    expect(
      (
        await refusal({
          geoKeys: [
            [1024, 1],
            [3072, 4326],
          ],
        })
      ).message,
    ).toMatch(/geographic \(degrees\)/);
  });

  it('takes heights from a compound WKT vertical CRS, and from the horizontal unit when none is stated', async () => {
    const compound = `COMPD_CS["ETRS89 / UTM 32N + height in feet",${ETRS89_UTM32N_WKT},VERT_CS["height (ft)",VERT_DATUM["some datum",2005],UNIT["foot",0.3048],AXIS["Up",UP]]]`;
    const reader = await openPointCloud(bufferSource(las(ground, { minor: 4, wkt: compound }), 'c.las'));
    expect(reader.header.horizontalUnit.name).toBe('metre');
    expect(reader.header.verticalUnit).toEqual({ name: 'foot', metres: FOOT });
    expect(reader.header.crs?.verticalUnitStated).toBe(true);
    const alone = await openPointCloud(
      bufferSource(
        las(ground, {
          geoKeys: [
            [1024, 1],
            [3072, 2227],
          ],
        }),
        'a.las',
      ),
    );
    expect(alone.header.crs?.verticalUnitStated).toBe(false);
    expect(alone.header.verticalUnit.name).toBe('us-survey-foot');
  });

  it('reads WKT 2: a PROJCRS, and a COMPOUNDCRS with heights in US survey feet', async () => {
    const projcrs =
      'PROJCRS["ETRS89 / UTM zone 32N",BASEGEOGCRS["ETRS89",DATUM["European Terrestrial Reference System 1989",ELLIPSOID["GRS 1980",6378137,298.257222101,LENGTHUNIT["metre",1]]],PRIMEM["Greenwich",0,ANGLEUNIT["degree",0.0174532925199433]],ID["EPSG",4258]],CONVERSION["UTM zone 32N",METHOD["Transverse Mercator",ID["EPSG",9807]],PARAMETER["Latitude of natural origin",0,ANGLEUNIT["degree",0.0174532925199433]],PARAMETER["Longitude of natural origin",9,ANGLEUNIT["degree",0.0174532925199433]],PARAMETER["Scale factor at natural origin",0.9996,SCALEUNIT["unity",1]],PARAMETER["False easting",500000,LENGTHUNIT["metre",1]],PARAMETER["False northing",0,LENGTHUNIT["metre",1]]],CS[Cartesian,2],AXIS["easting (E)",east,ORDER[1],LENGTHUNIT["metre",1]],AXIS["northing (N)",north,ORDER[2],LENGTHUNIT["metre",1]],ID["EPSG",25832]]';
    const plain = await openPointCloud(bufferSource(las(ground, { minor: 4, wkt: projcrs }), 'w2.las'));
    expect(plain.header.crs).toMatchObject({
      name: 'ETRS89 / UTM zone 32N',
      epsg: 25832,
      source: 'wkt',
      datum: { name: 'ETRS89', rule: 'taken-as-wgs84' },
    });
    expect(plain.header.horizontalUnit.name).toBe('metre');
    // 9° E, 50° N is on the zone's central meridian: easting 500 000 m.
    const [easting] = projectedCloudFrame(plain.header.crs!, plain.header.verticalUnit).place(50, 9);
    expect(easting).toBeCloseTo(500_000, 3);
    const compound = `COMPOUNDCRS["ETRS89 / UTM 32N + height (ftUS)",${projcrs},VERTCRS["height (ftUS)",VDATUM["some datum"],CS[vertical,1],AXIS["gravity-related height (H)",up,LENGTHUNIT["US survey foot",0.304800609601219]]]]`;
    const withHeights = await openPointCloud(
      bufferSource(las(ground, { minor: 4, wkt: compound }), 'w2c.las'),
    );
    expect(withHeights.header.verticalUnit.name).toBe('us-survey-foot');
    expect(withHeights.header.crs?.verticalUnitStated).toBe(true);
  });

  it('reads a LAS 1.4 file whose WKT bit is set from its WKT record, not its GeoTIFF keys', async () => {
    const both = {
      geoKeys: [
        [1024, 1],
        [3072, 2227],
      ] as const,
      wkt: ETRS89_UTM32N_WKT,
    };
    const v14 = await openPointCloud(bufferSource(las(ground, { ...both, minor: 4 }), 'v14.las'));
    expect(v14.header.crs).toMatchObject({ source: 'wkt', epsg: 25832 });
    // LAS 1.2 has no WKT bit: its keys are read.
    const v12 = await openPointCloud(bufferSource(las(ground, both), 'v12.las'));
    expect(v12.header.crs).toMatchObject({ source: 'geokeys-epsg', epsg: 2227 });
  });

  it('states the datum assumption with its size', async () => {
    const nad83 = await openPointCloud(
      bufferSource(
        las(ground, {
          geoKeys: [
            [1024, 1],
            [3072, 2227],
          ],
        }),
        'a.las',
      ),
    );
    expect(nad83.header.crs?.datum).toMatchObject({ name: 'NAD83', rule: 'taken-as-wgs84', offsetUpToM: 2 });
    expect(nad83.header.crs?.datum.statement).toMatch(/NAD83 is taken as WGS 84 .* about 1–2 m/);
    // 37 years at 2.5 cm: 0.925 m on 1 January 2026.
    expect(etrs89OffsetM(new Date(Date.UTC(2026, 0, 1)))).toBeCloseTo(0.925, 1);
    // A definition with Helmert parameters is transformed, with the dataset's accuracy for them.
    const swiss = await openPointCloud(
      bufferSource(
        las(ground, {
          geoKeys: [
            [1024, 1],
            [3072, 2056],
          ],
        }),
        's.las',
      ),
    );
    expect(swiss.header.crs?.datum).toMatchObject({ name: 'CH1903+', rule: 'transformed', offsetUpToM: 1 });
    // One that needs a datum grid is refused, naming the CRS and the grid.
    expect(
      (
        await refusal({
          geoKeys: [
            [1024, 1],
            [3072, 27700],
          ],
        })
      ).message,
    ).toMatch(
      /OSGB36 \/ British National Grid \(EPSG:27700\), which needs the datum grid OSTN15_NTv2_OSGBtoETRS\.gsb/,
    );
    const etrs = await openPointCloud(
      bufferSource(las(ground, { minor: 4, wkt: ETRS89_UTM32N_WKT }), 'e.las'),
    );
    expect(etrs.header.crs?.datum.statement).toMatch(/ETRS89 is taken as WGS 84 .* 2\.5 cm a year/);
  });

  it('measures a LAS that names no CRS as today, in metres, and says so', async () => {
    const bare = las(ground, {});
    const reader = await openPointCloud(bufferSource(bare, 'bare.las'));
    expect(reader.header.crs).toBeUndefined();
    const q = await measureSite(bufferSource(bare, 'bare.las'), undefined, { accuracy: LIDAR_GCP });
    expect(q.disclosures).toContain('bare.las states no linear unit; its coordinates were taken as metres.');
  });
});

describe('a real lidar file: autzen_trim.las (laz-perf test data, Apache-2.0)', () => {
  const path = sharedFile('data/laz-perf/autzen_trim.las');
  it('is placed on the earth from its user-defined GeoKeys and from its WKT record alike, in international feet', async () => {
    const bytes = new Uint8Array(readFileSync(path));
    const reader = await openPointCloud(bufferSource(bytes, 'autzen_trim.las'));
    const crs = reader.header.crs as CoordinateSystem;
    expect(crs).toMatchObject({
      name: 'NAD_1983_HARN_Lambert_Conformal_Conic',
      source: 'geokeys-parameters',
      datum: { name: 'NAD83(HARN)', rule: 'taken-as-wgs84' },
    });
    expect(reader.header.horizontalUnit).toEqual({ name: 'foot', metres: FOOT });
    // The file's centre lies in Eugene, Oregon (Autzen Stadium is at 44.058 N, 123.069 W).
    const b = reader.header.bounds!;
    const [lng, lat] = proj4(crs.definition, 'EPSG:4326').forward([
      (b.minX + b.maxX) / 2,
      (b.minY + b.maxY) / 2,
    ]);
    expect(lat).toBeGreaterThan(44.03);
    expect(lat).toBeLessThan(44.07);
    expect(lng).toBeGreaterThan(-123.1);
    expect(lng).toBeLessThan(-123.05);

    // The same file's WKT record, on its own, resolves to the same placement.
    const text = new TextDecoder('latin1').decode(bytes.subarray(0, 2000));
    const wkt = text.slice(text.indexOf('PROJCS[')).split('\0')[0]!.trim();
    const fromWkt = await openPointCloud(bufferSource(las(ground, { wkt }), 'autzen-wkt.las'));
    expect(fromWkt.header.crs).toMatchObject({ source: 'wkt', datum: { rule: 'taken-as-wgs84' } });
    expect(fromWkt.header.horizontalUnit).toEqual({ name: 'foot', metres: FOOT });
    const [x1, y1] = projectedCloudFrame(crs, reader.header.verticalUnit).place(lat!, lng!);
    const [x2, y2] = projectedCloudFrame(fromWkt.header.crs!, fromWkt.header.verticalUnit).place(lat!, lng!);
    expect(Math.abs(x1 - x2)).toBeLessThan(0.01);
    expect(Math.abs(y1 - y2)).toBeLessThan(0.01);
    expect(Math.abs(x1 - (b.minX + b.maxX) / 2)).toBeLessThan(0.01);
  });
});
