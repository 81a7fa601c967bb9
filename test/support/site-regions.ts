// The two-pile site's stated regions and their checks, shared by the tests that measure the site
// (@fieldops/survey-fixtures/site) from its cloud (regions.http.test.ts) and from its photos
// through COLMAP (photogrammetry.http.test.ts).
import { expect } from '@jest/globals';
import { SITE_PILES, toeAround } from '@fieldops/survey-fixtures/site';
import type { Body, Client } from './harness.ts';

export type BandBody = { plusMinus: number; relativeFraction: number };
export type RegionFigures = Body & {
  regionId: string;
  net: number;
  fill: number;
  tonnage: number | null;
  bands: Record<string, BandBody>;
  base: { kind: string };
};
export type QuantitiesBody = Body & {
  id: string;
  runId: string;
  basis: string | null;
  regionVersion: number;
  regions: RegionFigures[];
  rollup: { net: number };
  disclosures: string[];
};
export type RegionSetBody = Body & { version: number; etag: string; regions: Body[] };

/** The north pile to a triangulated toe (gravel), the south to a fitted plane (1.45 t/m³); `south` overrides. */
export const twoPiles = (south: Body = {}) => [
  {
    id: 'pile-north',
    name: 'North pile',
    polygon: toeAround(SITE_PILES.north),
    base: 'triangulated',
    material: 'gravel',
  },
  {
    id: 'pile-south',
    name: 'South pile',
    polygon: toeAround(SITE_PILES.south),
    base: 'fitted-plane',
    densityTPerM3: 1.45,
    ...south,
  },
];

export const pile = (q: QuantitiesBody, id: string) =>
  q.regions.find((r) => r.regionId === id) as RegionFigures;

/** The region's net holds the truth within its band, and the band is narrow enough to mean something. */
export function expectWithinBand(region: RegionFigures, truth: number, usefulBelow = 0.15): void {
  const band = region.bands.net as BandBody;
  expect(Math.abs(region.net - truth)).toBeLessThanOrEqual(band.plusMinus);
  // A band that holds the truth by being useless proves nothing.
  expect(band.relativeFraction).toBeLessThan(usefulBelow);
}

export const quantitiesOf = async (api: Client, projectId: string) =>
  (await api.get(`/projects/${projectId}/quantities`)).body.quantities as QuantitiesBody;

export const regionsOf = async (api: Client, projectId: string) =>
  (await api.get(`/projects/${projectId}/regions`)).body.regionSet as RegionSetBody;

/**
 * States `regions` as a surveyor does (reading the set for its etag, then PUT with If-Match), then
 * re-measures the newest run's cloud with them; answers the new set and the new snapshot.
 */
export async function stateAndRemeasure(
  api: Client,
  projectId: string,
  regions: Body[],
): Promise<{ regionSet: RegionSetBody; quantities: QuantitiesBody }> {
  const read = await api.get(`/projects/${projectId}/regions`);
  const stated = await api.put(
    `/projects/${projectId}/regions`,
    { regions },
    { 'If-Match': read.headers.get('etag') as string },
  );
  expect(stated.status).toBe(200);
  const measured = await api.post(`/projects/${projectId}/quantities/remeasure`);
  expect(measured.status).toBe(201);
  return {
    regionSet: stated.body.regionSet as RegionSetBody,
    quantities: measured.body.quantities as QuantitiesBody,
  };
}
