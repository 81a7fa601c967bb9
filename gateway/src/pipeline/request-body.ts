// Parses the request's path, query and body against the endpoint's declaration. The body is
// read raw and parsed here (after authentication), so an unauthenticated caller learns nothing
// from a malformed body and every failure gets the spec's code.
import { AppError } from '@fieldops/kit';
import type { Request } from 'express';
import { parseInput } from '../http/validate.ts';
import { acceptedBody, declaresOpId } from '../endpoint/body-schema.ts';
import type { EndpointDef } from '../endpoint/types.ts';
import { applyPageLimit, type AppliedLimit } from './page-limit.ts';

export interface ParsedRequest {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
  /** opId from the body ('' when none); kept in `body` only where the endpoint declares it. */
  opId: string;
  page: AppliedLimit | undefined;
}

function readJsonBody(req: Request): unknown {
  const raw: unknown = req.body;
  const text = Buffer.isBuffer(raw) ? raw.toString('utf8') : '';
  if (text.trim() === '') return undefined;
  if (!/^application\/(.+\+)?json\b/i.test(req.headers['content-type'] ?? '')) {
    throw new AppError('invalid_body', 'Send the body as JSON with Content-Type: application/json.');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError('invalid_json', 'The request body is not valid JSON; send a JSON object.');
  }
}

function parseBody(endpoint: EndpointDef, req: Request): Record<string, unknown> {
  const json = readJsonBody(req);
  const schema = acceptedBody(endpoint);
  if (!schema) {
    const empty = json === undefined || (isPlainObject(json) && Object.keys(json).length === 0);
    if (!empty)
      throw new AppError('invalid_body', `${endpoint.method} ${endpoint.path} takes no body; send none.`);
    return {};
  }
  if (json !== undefined && !isPlainObject(json)) {
    throw new AppError('invalid_body', 'The body must be a JSON object.');
  }
  const body = parseInput(schema, json ?? {}, 'body') as Record<string, unknown>;
  const oneOf = endpoint.bodyRequiresOneOf;
  if (oneOf && !oneOf.some((field) => body[field] !== undefined)) {
    throw new AppError('invalid_body', `Send at least one of ${oneOf.join(', ')}.`, { fields: oneOf });
  }
  return body;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function parseQuery(endpoint: EndpointDef, req: Request): Record<string, unknown> {
  const query = req.query as Record<string, unknown>;
  const repeated = Object.entries(query).find(([, value]) => typeof value !== 'string');
  if (repeated) {
    throw new AppError('field_invalid', `Send the query parameter ${repeated[0]} once, as plain text.`, {
      field: repeated[0],
    });
  }
  if (!endpoint.query) {
    const names = Object.keys(query);
    if (names.length) {
      throw new AppError(
        'unknown_field',
        `Unknown query parameter ${names.join(', ')}; this endpoint takes none.`,
        {
          field: names[0],
          fields: names,
        },
      );
    }
    return {};
  }
  return parseInput(endpoint.query, query, 'query') as Record<string, unknown>;
}

export function parseRequest(endpoint: EndpointDef, req: Request): ParsedRequest {
  const params = endpoint.params
    ? (parseInput(endpoint.params, req.params, 'query') as Record<string, string>)
    : ({} as Record<string, string>);
  const query = parseQuery(endpoint, req);
  const page = endpoint.list ? applyPageLimit(query.limit as number | undefined) : undefined;
  if (page) query.limit = page.limit;
  const body = parseBody(endpoint, req);
  const opId = typeof body.opId === 'string' ? body.opId : '';
  if (!declaresOpId(endpoint)) delete body.opId;
  return { params, query, body, opId, page };
}
