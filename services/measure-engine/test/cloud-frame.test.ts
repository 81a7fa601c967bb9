// The frames a stored cloud can be in (geometry/cloud-frame.ts): WGS 84 / UTM zones by their EPSG
// codes, checked against the projection's defining values (the central meridian at easting
// 500 000 m, the equator at northing 0 in the north and 10 000 000 m in the south) and against the
// east-north-up frame over a site (distances agree within the projection's scale factor).
import { describe, expect, it } from '@jest/globals';
import { enuCloudFrame, utmCloudFrame, utmZoneOf } from '../src/index.ts';

describe('cloud frames', () => {
  it('knows the WGS 84 / UTM codes, and only them', () => {
    expect(utmZoneOf(32631)).toEqual({ zone: 31, south: false });
    expect(utmZoneOf(32760)).toEqual({ zone: 60, south: true });
    for (const other of [2263, 4326, 32600, 32661, 32700, 25832, 32631.5])
      expect(utmZoneOf(other)).toBeNull();
    expect(utmCloudFrame(2263)).toBeNull();
  });

  it('projects on the defining values of the zone', () => {
    const north = utmCloudFrame(32631)!;
    const [e0, n0] = north.place(0, 3, 0);
    expect(e0).toBeCloseTo(500_000, 3);
    expect(n0).toBeCloseTo(0, 3);
    const south = utmCloudFrame(32731)!;
    expect(south.place(-0.000001, 3, 0)[1]).toBeCloseTo(10_000_000 - 0.1106, 2);
  });

  it('agrees with the east-north-up frame over a site, within the scale factor', () => {
    const origin = { lat: 51.4412, lng: -0.9418, alt: 72 };
    const enu = enuCloudFrame(origin);
    const utm = utmCloudFrame(32630)!;
    const [a, b] = [
      [51.4412, -0.9418],
      [51.4422, -0.9403],
    ] as const;
    const distance = (frame: typeof enu) => {
      const p = frame.place(a[0], a[1], 72);
      const q = frame.place(b[0], b[1], 72);
      return Math.hypot(q[0] - p[0], q[1] - p[1]);
    };
    // Zone 30's scale factor 2.0° east of its central meridian is about 1.0000.
    expect(distance(utm) / distance(enu)).toBeGreaterThan(0.9996);
    expect(distance(utm) / distance(enu)).toBeLessThan(1.001);
  });
});
