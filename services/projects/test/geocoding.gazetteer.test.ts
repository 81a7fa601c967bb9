// The offline geocoder on the real gazetteer (GeoNames places of 1000+ people) and borders.
import { describe, expect, it } from '@jest/globals';
import { countryOfPoint } from '../src/geocoding/country-of-point.ts';
import { foldName } from '../src/geocoding/gazetteer.ts';
import { gazetteerGeocoder } from '../src/geocoding/gazetteer.geocoder.ts';

const geocoder = gazetteerGeocoder();

describe('the gazetteer geocoder', () => {
  it('reads an address by its parts: the town, narrowed by state code or country name', async () => {
    const [springfield] = await geocoder.search('1 Main St, Springfield, IL 62701', { limit: 1 });
    expect(springfield).toMatchObject({ name: 'Springfield', region: 'Illinois', countryCode: 'US' });
    const [london] = await geocoder.search('London, Canada', { limit: 1 });
    expect(london).toMatchObject({ name: 'London', countryCode: 'CA' });
    const [biggest] = await geocoder.search('London', { limit: 1 });
    expect(biggest).toMatchObject({ countryCode: 'GB' });
  });

  it('folds accents and punctuation', async () => {
    expect(foldName('Zürich')).toBe('zurich');
    expect(foldName('St. Louis')).toBe('st louis');
    const [zurich] = await geocoder.search('zurich', { limit: 1 });
    expect(zurich?.countryCode).toBe('CH');
  });

  it('reverses a point to its country by borders, even near a border town of the neighbour', async () => {
    // Detroit's riverfront: Windsor (Canada) lies across the river.
    expect(countryOfPoint({ lat: 42.3314, lng: -83.0458 })).toBe('US');
    expect(countryOfPoint({ lat: 42.3149, lng: -83.0364 })).toBe('CA');
    const reversed = await geocoder.reverse({ lat: 51.5, lng: -0.12 });
    expect(reversed).toMatchObject({ countryCode: 'GB', nearest: { countryCode: 'GB' } });
    expect(await geocoder.reverse({ lat: 30, lng: -40 })).toEqual({ countryCode: null, nearest: null });
  });
});
