// LAZ through HTTP (issue 35): real lidar over Autzen Stadium, Oregon (laz-perf's test data,
// Apache-2.0, shared/data/laz-perf/), uploaded once as LAS and once as its LAZ twin. Both runs
// succeed, both are placed on the earth from the file's user-defined Lambert conformal conic in
// international feet, and one region stated in WGS 84 over part of the stadium measures the same
// from either: the LAZ is decoded chunk by chunk into the same points the LAS holds.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import proj4 from 'proj4';
import { bufferSource, openPointCloud } from '@fieldops/measure-engine';
import { sharedFile } from '@fieldops/measure-engine/testing';
import { captureProject, finalizedPointCapture, type RunBody } from './support/capture.ts';
import { eventually } from './support/harness.ts';
import { pile, quantitiesOf, stateAndRemeasure, type QuantitiesBody } from './support/site-regions.ts';
import { suiteTenant } from './support/suite-tenant.ts';

const { api } = await suiteTenant('Autzen Surveys');

const LAS = new Uint8Array(readFileSync(sharedFile('data/laz-perf/autzen_trim.las')));
const LAZ = new Uint8Array(readFileSync(sharedFile('data/laz-perf/autzen_trim.laz')));

async function settledRun(projectId: string, bytes: Uint8Array, name: string, contentType: string) {
  const body = Buffer.from(bytes);
  const session = await finalizedPointCapture(api, projectId, body, { name, contentType, size: body.length });
  return eventually(async () => {
    const run = (await api.get(`/projects/${projectId}/runs/${session.runId}`)).body.run as RunBody;
    return run.status === 'succeeded' || run.status === 'failed' ? run : undefined;
  }, 120_000);
}

/** The middle of the file's extent (a fifth of each side in from its edges), in WGS 84. */
async function middleInWgs84(): Promise<{ lat: number; lng: number }[]> {
  const { header } = await openPointCloud(bufferSource(LAS, 'autzen_trim.las'));
  const b = header.bounds!;
  const toWgs84 = proj4(header.crs!.definition, 'EPSG:4326');
  const [dx, dy] = [(b.maxX - b.minX) / 5, (b.maxY - b.minY) / 5];
  const corners: [number, number][] = [
    [b.minX + dx, b.minY + dy],
    [b.maxX - dx, b.minY + dy],
    [b.maxX - dx, b.maxY - dy],
    [b.minX + dx, b.maxY - dy],
  ];
  return corners.map((xy) => {
    const [lng, lat] = toWgs84.forward(xy);
    return { lat: lat!, lng: lng! };
  });
}

async function measuredFrom(bytes: Uint8Array, name: string, contentType: string) {
  const projectId = await captureProject(api, `Autzen ${name}`);
  const run = await settledRun(projectId, bytes, name, contentType);
  expect({ status: run.status, error: run.error }).toEqual({ status: 'succeeded', error: '' });
  const whole = await eventually(async () => {
    const q = await quantitiesOf(api, projectId);
    return q.runId === run.id ? q : undefined;
  }, 30_000);
  const region = {
    id: 'stands',
    name: 'Middle of the stadium',
    polygon: await middleInWgs84(),
    base: 'fitted-plane',
  };
  const { quantities } = await stateAndRemeasure(api, projectId, [region]);
  return { whole, stated: quantities as QuantitiesBody };
}

describe('Autzen lidar as LAS and as LAZ', () => {
  it('places both on the earth and measures a WGS 84 region over part of it the same from either', async () => {
    const fromLas = await measuredFrom(LAS, 'autzen_trim.las', 'application/vnd.las');
    const fromLaz = await measuredFrom(LAZ, 'autzen_trim.laz', 'application/vnd.laszip');
    for (const { whole, stated } of [fromLas, fromLaz]) {
      expect(whole.capture).toMatchObject({
        horizontalUnit: { name: 'foot', metres: 0.3048 },
        coordinateSystem: {
          name: 'NAD_1983_HARN_Lambert_Conformal_Conic',
          datum: { name: 'NAD83(HARN)', rule: 'taken-as-wgs84' },
        },
      });
      expect(stated).toMatchObject({ basis: 'stated-regions', regionVersion: 1 });
      const region = pile(stated, 'stands');
      // A third of the extent's area, in square metres (the file is about 1,000 by 1,400 ft).
      expect(region.footprint).toBeGreaterThan(10_000);
    }
    expect(fromLaz.whole.rollup.net).toBe(fromLas.whole.rollup.net);
    const [las, laz] = [pile(fromLas.stated, 'stands'), pile(fromLaz.stated, 'stands')];
    expect({ net: laz.net, cut: laz.cut, fill: laz.fill, footprint: laz.footprint }).toEqual({
      net: las.net,
      cut: las.cut,
      fill: las.fill,
      footprint: las.footprint,
    });
  }, 300_000); // two captures, each waited for up to 120 s for its run and 30 s for its quantities
});
