// Positions across the antimeridian (±180° longitude): their mean longitude, and a site's frame
// built around photos on both sides of it. A plain mean of 179.9995° and -179.9995° is 0°, the
// other side of the earth: the frame's coordinates were then thousands of kilometres.
import { describe, expect, it } from '@jest/globals';
import { enuCloudFrame, frameAround, meanLongitude, wrapLongitude, type Geodetic } from '../src/index.ts';

describe('longitudes across ±180°', () => {
  it('averages to the meridian between them, on either side of the antimeridian', () => {
    expect(Math.abs(meanLongitude([179.9995, -179.9995]))).toBeCloseTo(180, 9);
    expect(meanLongitude([179.999, -179.997])).toBeCloseTo(-179.999, 9);
    expect(meanLongitude([179.997, -179.999])).toBeCloseTo(179.999, 9);
    expect(meanLongitude([-0.001, 0.003])).toBeCloseTo(0.001, 12);
    expect(meanLongitude([5.1214, 5.1216, 5.1218])).toBeCloseTo(5.1216, 12);
    expect(wrapLongitude(-180)).toBe(180);
    expect(wrapLongitude(540.5)).toBeCloseTo(-179.5, 12);
  });

  it('places a site straddling 180° in a frame centred on it', () => {
    // Photos on a 100 m square around (lat -16.8, lon 180) (Taveuni, Fiji, which the meridian crosses).
    const dLon = 0.05 / 111.32 / Math.cos((16.8 * Math.PI) / 180);
    const positions: Geodetic[] = [
      { lat: -16.8 - 0.00045, lon: 180 - dLon, alt: 100 },
      { lat: -16.8 - 0.00045, lon: -180 + dLon, alt: 100 },
      { lat: -16.8 + 0.00045, lon: -180 + dLon, alt: 100 },
      { lat: -16.8 + 0.00045, lon: 180 - dLon, alt: 100 },
    ];
    const frame = frameAround(positions);
    expect(Math.abs(frame.origin.lon)).toBeCloseTo(180, 9);
    for (const position of positions) {
      const [east, north] = frame.toEnu(position);
      expect(Math.abs(east)).toBeGreaterThan(45);
      expect(Math.abs(east)).toBeLessThan(55);
      expect(Math.abs(north)).toBeLessThan(55);
    }
    // The west photo (lon 179.99…) is west of the centre, the east one (lon -179.99…) east of it.
    expect(frame.toEnu(positions[0]!)[0]).toBeLessThan(0);
    expect(frame.toEnu(positions[1]!)[0]).toBeGreaterThan(0);
    // A region drawn across the meridian on a cloud whose stated origin is there lands beside it.
    const cloud = enuCloudFrame({ lat: -16.8, lng: 179.9999, alt: 0 });
    const [x, y] = cloud.place(-16.8, -179.9999);
    expect(x).toBeCloseTo(2 * 0.0001 * 111_320 * Math.cos((16.8 * Math.PI) / 180), -1);
    expect(Math.abs(y)).toBeLessThan(0.01);
  });
});
