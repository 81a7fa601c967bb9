// Point clouds in a surveyor's coordinate system, through HTTP (issue 35): the generated two-pile
// yard (@fieldops/survey-fixtures/site) placed in California and written as LAS in NAD83 /
// California zone 3 in US survey feet, its GeoKeys naming only EPSG:2227 (no unit key, as much
// survey software writes). It was published 35.3 times too large; now the whole-capture snapshot
// is in metres, the datum assumption is disclosed, and toes stated in WGS 84 measure each pile
// within its band. A file naming a CRS the platform cannot resolve fails its run with a sentence
// naming that CRS.
import { describe, expect, it } from '@jest/globals';
import proj4 from 'proj4';
import { bufferSource, measureSite } from '@fieldops/measure-engine';
import { las } from '@fieldops/measure-engine/testing';
import {
  SITE_PILES,
  SITE_TRUE_VOLUMES_M3,
  siteCloudProjected,
  toeAround,
} from '@fieldops/survey-fixtures/site';
import { captureProject, finalizedPointCapture, type RunBody } from './support/capture.ts';
import { eventually } from './support/harness.ts';
import { pile, quantitiesOf, stateAndRemeasure, type QuantitiesBody } from './support/site-regions.ts';
import { suiteTenant } from './support/suite-tenant.ts';

const { api } = await suiteTenant('Golden State Aggregates');

const US_FOOT = 1200 / 3937;
const ORIGIN = { lat: 37.93, lon: -121.7, alt: 60 };
const CA3 =
  '+proj=lcc +lat_0=36.5 +lon_0=-120.5 +lat_1=38.4333333333333 +lat_2=37.0666666666667 +x_0=2000000.0001016 +y_0=500000.0001016 +ellps=GRS80 +units=us-ft +no_defs';

/** The yard in California zone 3, x, y and z in US survey feet. */
const yard = (() => {
  const toCrs = proj4('EPSG:4326', CA3);
  return siteCloudProjected((lat, lon, alt) => {
    const [x, y] = toCrs.forward([lon, lat]);
    return [x!, y!, alt / US_FOOT];
  }, ORIGIN);
})();
/** The same points in metres, for the whole capture's reference. */
const yardInMetres = {
  x: yard.x.map((v) => v * US_FOOT),
  y: yard.y.map((v) => v * US_FOOT),
  z: yard.z.map((v) => v * US_FOOT),
};

/** A test that waits for a run may wait settledRun's whole minute on a busy machine: jest's 30 s is too short. */
const RUN_TEST_MS = 120_000;

async function settledRun(projectId: string, bytes: Uint8Array, name: string): Promise<RunBody> {
  const body = Buffer.from(bytes);
  const session = await finalizedPointCapture(api, projectId, body, {
    name,
    contentType: 'application/vnd.las',
    size: body.length,
  });
  // Through the topology the run waits for a worker slot on two cores that other suites' runs may
  // still hold: a minute was not always enough there. Within RUN_TEST_MS.
  return eventually(async () => {
    const run = (await api.get(`/projects/${projectId}/runs/${session.runId}`)).body.run as RunBody;
    return run.status === 'succeeded' || run.status === 'failed' ? run : undefined;
  }, 110_000);
}

describe('a LAS in a State Plane zone in US survey feet that names only its EPSG code', () => {
  it(
    'publishes the whole capture in metres with the datum disclosed, and measures stated toes within their bands',
    async () => {
      const projectId = await captureProject(api, 'Stockton Yard');
      const run = await settledRun(
        projectId,
        las(yard, {
          geoKeys: [
            [1024, 1],
            [3072, 2227],
          ],
        }),
        'yard_ca3_ftus.las',
      );
      expect({ status: run.status, error: run.error }).toEqual({ status: 'succeeded', error: '' });

      const whole = await eventually(async () => {
        const q = await quantitiesOf(api, projectId);
        return q.runId === run.id ? q : undefined;
      }, 15_000);
      expect(whole.basis).toBe('automatic-whole-capture');
      expect(whole.capture).toMatchObject({
        epsg: 2227,
        horizontalUnit: { name: 'us-survey-foot', metres: US_FOOT },
        verticalUnit: { name: 'us-survey-foot' },
        coordinateSystem: {
          name: 'NAD83 / California zone 3 (ftUS)',
          source: 'geokeys-epsg',
          datum: { name: 'NAD83', rule: 'taken-as-wgs84', offsetUpToM: 2 },
          verticalUnitStated: false,
        },
      });
      const reference = await measureSite(bufferSource(las(yardInMetres), 'metres.las'), undefined, {
        accuracy: { sensor: 'lidar', control: 'gcp' },
      });
      expect(Math.abs(whole.rollup.net - reference.rollup.net)).toBeLessThan(0.01 * reference.rollup.net);
      expect((whole.surface as { pointDensityPerM2: number }).pointDensityPerM2).toBeGreaterThan(7);
      expect(whole.disclosures.join(' ')).toMatch(/NAD83 is taken as WGS 84 .* about 1–2 m/);
      expect(whole.disclosures.join(' ')).toMatch(
        /no vertical unit; heights were taken in its horizontal unit/,
      );

      const toes = [
        {
          id: 'pile-north',
          name: 'North pile',
          polygon: toeAround(SITE_PILES.north, 3, 12, ORIGIN),
          base: 'triangulated',
        },
        {
          id: 'pile-south',
          name: 'South pile',
          polygon: toeAround(SITE_PILES.south, 3, 12, ORIGIN),
          base: 'fitted-plane',
        },
      ];
      const { quantities: q } = await stateAndRemeasure(api, projectId, toes);
      expect(q).toMatchObject({ runId: run.id, basis: 'stated-regions', regionVersion: 1 });
      expect(q.capture).toMatchObject({ coordinateSystem: { datum: { rule: 'taken-as-wgs84' } } });
      expect(q.disclosures.join(' ')).toMatch(/NAD83 is taken as WGS 84/);
      for (const [id, truth] of [
        ['pile-north', SITE_TRUE_VOLUMES_M3.north],
        ['pile-south', SITE_TRUE_VOLUMES_M3.south],
      ] as const) {
        const region = pile(q as QuantitiesBody, id);
        expect(Math.abs(region.net - truth)).toBeLessThanOrEqual(region.bands.net!.plusMinus);
        expect(Math.abs(region.net - truth) / truth).toBeLessThan(0.02);
      }
    },
    RUN_TEST_MS,
  );

  it(
    'fails the run of a file naming a CRS the platform cannot resolve, naming that CRS',
    async () => {
      const projectId = await captureProject(api, 'Unknown Grid Yard');
      const run = await settledRun(
        projectId,
        las(yard, {
          geoKeys: [
            [1024, 1],
            [3072, 7000],
          ],
        }),
        'grid.las',
      );
      expect(run.status).toBe('failed');
      expect(run.error).toMatch(
        /grid\.las states its coordinates are in EPSG:7000, which the platform's EPSG definitions do not hold; reproject/,
      );
      const q = await quantitiesOf(api, projectId);
      expect(q.regions ?? []).toEqual([]);
    },
    RUN_TEST_MS,
  );
});
