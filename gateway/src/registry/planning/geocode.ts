// GET /api/v1/geocode: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./planning.schemas.ts; listed by ../families.gen.ts.
import { GEOCODE_LIMITS } from '@fieldops/contracts';
import { AppError } from '@fieldops/kit';
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { defineEndpoint } from '../../endpoint/types.ts';
import { GEOCODING_DEADLINE, geocodeReply } from './planning.schemas.ts';

export const geocode = defineEndpoint({
  operationId: 'geocode',
  method: 'GET',
  path: '/geocode',
  tag: 'Geocoding',
  summary:
    'Search places by text (q), or reverse-geocode a point (lat and lng) to its country and nearest place.',
  description:
    'The offline gazetteer (GeoNames places of 1000+ people) unless the operator configures Nominatim.',
  auth: 'scope',
  scope: { action: 'read', kind: 'job' },
  query: z.strictObject({
    q: z.string().trim().min(1).max(GEOCODE_LIMITS.q).optional(),
    // WGS 84's ranges: what a coordinate is, not a limit.
    lat: z.coerce.number().min(-90).max(90).optional(),
    lng: z.coerce.number().min(-180).max(180).optional(),
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 code such as US')
      .toUpperCase()
      .optional(),
    limit: z.coerce.number().int().min(1).max(GEOCODE_LIMITS.results).optional(),
  }),
  response: geocodeReply,
  handle: async ({ query, ctx, clients }) => {
    if (query.q === undefined && (query.lat === undefined || query.lng === undefined)) {
      throw new AppError(
        'field_required',
        'Send q to search, or both lat and lng to reverse-geocode a point.',
        {
          field:
            query.lat === undefined && query.lng === undefined
              ? 'q'
              : query.lat === undefined
                ? 'lat'
                : 'lng',
        },
      );
    }
    const reply = await callUnary(
      clients.planning,
      'geocode',
      {
        q: query.q,
        lat: query.q === undefined ? query.lat : undefined,
        lng: query.q === undefined ? query.lng : undefined,
        limit: query.limit ?? 5,
        country: query.country,
      },
      ctx,
      GEOCODING_DEADLINE,
    );
    const reverse = query.q === undefined ? { countryCode: reply.countryCode || null } : {};
    return {
      body: { items: reply.items, ...reverse, geocoder: reply.geocoder, attribution: reply.attribution },
    };
  },
});
