// The Nominatim adapter speaks Nominatim's HTTP API: checked against a local server that answers
// in Nominatim's jsonv2 format (recorded responses), and against a server that fails.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError } from '@fieldops/kit';
import { geocoderFromEnv } from '../src/geocoding/geocoder.config.ts';
import { nominatimGeocoder } from '../src/geocoding/nominatim.geocoder.ts';

const SEARCH = [
  {
    lat: '39.7392364',
    lon: '-104.984862',
    name: 'Denver',
    display_name: 'Denver, Colorado, United States',
    addresstype: 'city',
    address: { city: 'Denver', state: 'Colorado', country: 'United States', country_code: 'us' },
  },
];
const REVERSE = {
  lat: '53.7974185',
  lon: '-1.5437941',
  name: 'Leeds',
  addresstype: 'city',
  address: { city: 'Leeds', state: 'England', country: 'United Kingdom', country_code: 'gb' },
};

let server: Server;
let baseUrl: string;
const seen: IncomingMessage[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req);
    const url = new URL(req.url ?? '/', 'http://local');
    if (url.pathname === '/fail/search') return void res.writeHead(502).end();
    res.setHeader('content-type', 'application/json');
    if (url.pathname === '/search') return void res.end(JSON.stringify(SEARCH));
    if (url.pathname === '/reverse' && url.searchParams.get('lat') === '30')
      return void res.end(JSON.stringify({ error: 'Unable to geocode' }));
    return void res.end(JSON.stringify(REVERSE));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the Nominatim adapter', () => {
  it('searches with jsonv2, the limit, the country filter and its User-Agent', async () => {
    const geocoder = nominatimGeocoder({ baseUrl, userAgent: 'fieldops-test (ops@example.com)' });
    const places = await geocoder.search('Denver, CO', { limit: 3, countryCode: 'US' });
    expect(places).toEqual([
      {
        name: 'Denver',
        region: 'Colorado',
        countryCode: 'US',
        lat: 39.7392364,
        lng: -104.984862,
        precision: 'locality',
        source: 'nominatim',
      },
    ]);
    const request = seen[seen.length - 1] as IncomingMessage;
    const url = new URL(request.url ?? '', 'http://local');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      q: 'Denver, CO',
      format: 'jsonv2',
      limit: '3',
      countrycodes: 'us',
    });
    expect(request.headers['user-agent']).toBe('fieldops-test (ops@example.com)');
    expect(geocoder.attribution).toMatch(/OpenStreetMap contributors, ODbL/);
  });

  it('reverse-geocodes to the country and the place; at sea it answers no country', async () => {
    const geocoder = nominatimGeocoder({ baseUrl, userAgent: 'fieldops-test' });
    expect(await geocoder.reverse({ lat: 53.8, lng: -1.55 })).toMatchObject({
      countryCode: 'GB',
      nearest: { name: 'Leeds' },
    });
    expect(await geocoder.reverse({ lat: 30, lng: -40 })).toEqual({ countryCode: null, nearest: null });
  });

  it('turns a failing server into 503 unavailable', async () => {
    const geocoder = nominatimGeocoder({ baseUrl: `${baseUrl}/fail`, userAgent: 'fieldops-test' });
    const error = await geocoder.search('x', { limit: 1 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('unavailable');
  });

  it('is chosen by configuration, which needs a User-Agent', () => {
    expect(geocoderFromEnv({}).name).toBe('gazetteer');
    expect(() => geocoderFromEnv({ FIELDOPS_GEOCODER: 'nominatim' })).toThrow(/FIELDOPS_GEOCODER_USER_AGENT/);
    expect(geocoderFromEnv({ FIELDOPS_GEOCODER: 'nominatim', FIELDOPS_GEOCODER_USER_AGENT: 'x' }).name).toBe(
      'nominatim',
    );
    expect(() => geocoderFromEnv({ FIELDOPS_GEOCODER: 'google' })).toThrow(/gazetteer or nominatim/);
  });
});
