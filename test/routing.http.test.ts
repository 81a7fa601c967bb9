// How /api/v1 finds an endpoint (gateway/src/http/route-groups.ts): only among the routes of the
// request's first path segment, with Express's own matching rules inside that group. What a
// request finds is what the one router of every route found before: case-insensitive segments, an
// optional trailing slash, HEAD served by GET, and the not_found envelope for everything else,
// OPTIONS included (no answer Express would make up from the methods it saw).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestPlatform, type TestPlatform } from './support/harness.ts';
import { rawRequest } from './support/raw-http.ts';

let platform: TestPlatform;
let token: string;
let leadId: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  const tenant = await platform.tenant('Routing');
  token = tenant.token;
  const created = await tenant.api.post('/leads', { name: 'Rita Route', email: 'rita@routing.example' });
  expect(created.status).toBe(201);
  leadId = (created.body.lead as { id: string }).id;
});

afterAll(async () => {
  await platform.stop();
});

const send = (method: string, path: string) =>
  rawRequest(platform.url, { method, path, headers: { authorization: `Bearer ${token}` } });

describe('an endpoint is found', () => {
  it.each([
    ['the group registered first', '/api/v1/audit'],
    ['a list', '/api/v1/leads'],
    ['a path parameter', '/api/v1/leads/:lead'],
    ['a group of one route', '/api/v1/me'],
    ['the group registered last', '/api/v1/resources'],
    ['in any case', '/API/v1/Leads'],
    ['with a trailing slash', '/api/v1/leads/'],
  ])('%s: GET %s', async (_case, path) => {
    const reply = await send('GET', path.replace(':lead', leadId));
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ ok: true });
  });

  it('HEAD is answered by the GET route, without a body', async () => {
    const reply = await send('HEAD', '/api/v1/leads');
    expect(reply.status).toBe(200);
    expect(reply.text).toBe('');
  });

  it('the request is counted under its route template', async () => {
    await send('GET', `/api/v1/leads/${leadId}`);
    const metrics = await (
      await fetch(`${platform.url}/metrics`, { headers: { authorization: `Bearer ${platform.adminSecret}` } })
    ).text();
    expect(metrics).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/leads\/:id"/);
  });
});

describe('anything else is not_found, in the envelope', () => {
  it.each([
    ['a method the path does not take', 'PUT', '/api/v1/leads'],
    ['OPTIONS', 'OPTIONS', '/api/v1/leads'],
    ['a first segment no endpoint has', 'GET', '/api/v1/nothing'],
    ['a known first segment, an unknown rest', 'GET', '/api/v1/leads/lead_1/nothing'],
    ['the API root', 'GET', '/api/v1/'],
    ['an encoded letter in a literal segment', 'GET', '/api/v1/le%61ds'],
  ])('%s: %s %s', async (_case, method, path) => {
    const reply = await send(method, path);
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({ ok: false, code: 'not_found', retryable: false });
    expect(reply.headers.allow).toBeUndefined();
  });
});
