// The two-phase confirmation, the consequence budgets and project-restricted tokens through HTTP (spec: Authentication 5,
// Limits, Errors rule 3). No endpoint of the product needs confirmation yet (proposals and
// invoices arrive with the crm issue), so this builds the real gateway — identity, embedded fast
// state with a clock the test moves, the real pipeline — around one declared endpoint that sends
// an "email", and checks what a caller sees.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createEmbeddedFastState } from '@fieldops/kit/fast';
import { createLogger } from '@fieldops/kit';
import { z } from 'zod';
import { createGatewayApp } from '../../src/app.ts';
import type { ServiceClients } from '../../src/clients.ts';
import { SPEC_RATE_LIMITS } from '../../src/limits.ts';
import { idParams } from '../../src/endpoint/common.schemas.ts';
import { introspectionEndpoints } from '../../src/registry/introspection.endpoints.ts';
import type { EndpointDef } from '../../src/endpoint/types.ts';
import { newTenant, openFixture, OPERATOR, type Fixture } from '../identity/helpers.ts';

type Body = Record<string, unknown>;

const sent: { id: string; to: string; runId: string; confirmedBy: string }[] = [];
let clock = Date.parse('2026-11-22T10:00:00Z');

const sendNote: EndpointDef = {
  operationId: 'sendNote',
  method: 'POST',
  path: '/notes/:id/send',
  tag: 'Test',
  summary: 'Email a note: irreversible, spends two emails.',
  auth: 'scope',
  scope: { action: 'update', kind: 'deal' },
  params: idParams,
  body: z.strictObject({ to: z.email() }),
  response: z.object({}).loose(),
  errors: ['conflict'],
  dryRun: true,
  confirm: { effect: 'irreversible' },
  budgets: [{ kind: 'emails', amount: 2 }],
  handle: async ({ params, body, ctx }) => {
    const to = String(body.to);
    if (ctx.dryRun) {
      const masked = to.replace(/^(.).*(@.*)$/, '$1***$2');
      return {
        body: {
          dryRun: true,
          applied: false,
          willDo: `Email note ${params.id} to ${masked}.`,
          effects: [{ action: 'event', kind: 'note', id: params.id }],
          details: { recipient: masked },
        },
      };
    }
    sent.push({
      id: String(params.id),
      to,
      runId: ctx.agent?.runId ?? '',
      confirmedBy: ctx.agent?.confirmedBy ?? '',
    });
    return { body: { sent: true } };
  },
};

/** A project resource, to prove project-restricted tokens (the projects service arrives later). */
const readProjectNote: EndpointDef = {
  operationId: 'readProjectNote',
  method: 'GET',
  path: '/projects/:projectId/note',
  tag: 'Test',
  summary: 'Read a note of a project.',
  auth: 'scope',
  scope: { action: 'read', kind: 'job' },
  params: z.strictObject({ projectId: z.string() }),
  projectParam: 'projectId',
  response: z.object({}).loose(),
  errors: ['not_found'],
  handle: async ({ params }) => ({ body: { note: `note of ${params.projectId}` } }),
};

let fixture: Fixture;
let server: Server;
let base: string;
let secret: string;
let otherSecret: string;
let projectSecret: string;

beforeAll(async () => {
  fixture = await openFixture();
  const tenant = await newTenant(fixture.identity);
  secret = (await fixture.identity.tokens.issue(tenant, { role: 'Manager' }, OPERATOR)).secret;
  otherSecret = (await fixture.identity.tokens.issue(tenant, { role: 'Manager' }, OPERATOR)).secret;
  projectSecret = (
    await fixture.identity.tokens.issue(tenant, { role: 'Staff', projectIds: ['prj_a'] }, OPERATOR)
  ).secret;
  const fast = createEmbeddedFastState({ now: () => clock });
  const limits = { ...SPEC_RATE_LIMITS, budgetsPerHour: { ...SPEC_RATE_LIMITS.budgetsPerHour, emails: 5 } };
  const app = createGatewayApp({
    identity: fixture.identity,
    fast,
    clients: {} as ServiceClients,
    limits,
    adminSecret: 'test-admin-secret-0123',
    logger: createLogger('test', 'silent'),
    ready: async () => true,
    registry: (deps) => {
      const registry: EndpointDef[] = [sendNote, readProjectNote];
      registry.push(...introspectionEndpoints(() => registry, deps));
      return registry;
    },
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await fixture.close();
});

beforeEach(() => {
  sent.length = 0;
  clock += 2 * 60 * 60 * 1000; // a fresh budget hour for every test
});

async function send(body: Body, headers: Record<string, string> = {}, token = secret) {
  const res = await fetch(`${base}/notes/n1/send`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Body };
}

describe('two-phase confirmation', () => {
  it('answers the first call 409 confirmation_required with a token, the header and willDo; nothing happens', async () => {
    const first = await send({ to: 'client@example.com' });
    expect(first.status).toBe(409);
    expect(first.body).toMatchObject({
      ok: false,
      code: 'confirmation_required',
      retryable: false,
      confirmHeader: 'x-service-confirm',
      willDo: {
        summary: 'Email note n1 to c***@example.com.',
        effect: 'irreversible',
        recipient: 'c***@example.com',
      },
    });
    expect(first.body.confirmToken).toEqual(expect.stringMatching(/^cfm_/));
    expect(sent).toEqual([]);
  });

  it('performs the identical request re-sent with the token, once, recording who confirmed as a claim', async () => {
    const first = await send({ to: 'client@example.com' });
    const headers = {
      'x-service-confirm': String(first.body.confirmToken),
      'x-agent-run-id': 'run-7',
      'x-agent-confirmed-by': 'owner@tenant.test',
    };
    const confirmed = await send({ to: 'client@example.com' }, headers);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ ok: true, sent: true });
    expect(sent).toEqual([
      { id: 'n1', to: 'client@example.com', runId: 'run-7', confirmedBy: 'owner@tenant.test' },
    ]);
    const reused = await send({ to: 'client@example.com' }, headers);
    expect(reused.body.code).toBe('confirmation_required');
    expect(sent).toHaveLength(1);
  });

  it('refuses a token for a changed body or another credential, and after 10 minutes', async () => {
    const forChanged = await send({ to: 'client@example.com' });
    const changed = await send(
      { to: 'other@example.com' },
      { 'x-service-confirm': String(forChanged.body.confirmToken) },
    );
    expect(changed.body.code).toBe('confirmation_required');
    const forOther = await send({ to: 'client@example.com' });
    const other = await send(
      { to: 'client@example.com' },
      { 'x-service-confirm': String(forOther.body.confirmToken) },
      otherSecret,
    );
    expect(other.body.code).toBe('confirmation_required');
    const forLater = await send({ to: 'client@example.com' });
    clock += 10 * 60 * 1000 + 1000;
    const late = await send(
      { to: 'client@example.com' },
      { 'x-service-confirm': String(forLater.body.confirmToken) },
    );
    expect(late.body.code).toBe('confirmation_required');
    expect(sent).toEqual([]);
  });

  it('lets a dry run rehearse without confirmation, sending nothing and spending no budget', async () => {
    const dry = await send({ to: 'client@example.com' }, { 'x-service-dry-run': '1' });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({
      ok: true,
      dryRun: true,
      applied: false,
      willDo: 'Email note n1 to c***@example.com.',
    });
    expect(sent).toEqual([]);
    const me = await fetch(`${base}/me`, { headers: { authorization: `Bearer ${secret}` } });
    expect((((await me.json()) as Body).budgets as Record<string, Body>).emails).toMatchObject({
      used: 0,
      remaining: 5,
    });
  });
});

describe('consequence budgets', () => {
  async function sendConfirmed() {
    const first = await send({ to: 'client@example.com' });
    return send({ to: 'client@example.com' }, { 'x-service-confirm': String(first.body.confirmToken) });
  }

  it('spends per token per kind, and refuses with 429 naming the kind once the hour is spent', async () => {
    expect((await sendConfirmed()).status).toBe(200);
    expect((await sendConfirmed()).status).toBe(200);
    const refused = await sendConfirmed();
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      ok: false,
      code: 'rate_limited',
      retryable: true,
      budget: 'emails',
    });
    expect(String(refused.body.error)).toContain('emails');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(sent).toHaveLength(2);
    const first = await send({ to: 'client@example.com' }, {}, otherSecret);
    const otherToken = await send(
      { to: 'client@example.com' },
      { 'x-service-confirm': String(first.body.confirmToken) },
      otherSecret,
    );
    expect(otherToken.status).toBe(200);
  });

  it('whole again in the next hour', async () => {
    await sendConfirmed();
    await sendConfirmed();
    clock += 60 * 60 * 1000;
    expect((await sendConfirmed()).status).toBe(200);
  });
});

describe('project-restricted tokens', () => {
  const read = (project: string, token: string) =>
    fetch(`${base}/projects/${project}/note`, { headers: { authorization: `Bearer ${token}` } });

  it('reach their projects and get 404, as for another tenant, outside them', async () => {
    expect((await read('prj_a', projectSecret)).status).toBe(200);
    const outside = await read('prj_b', projectSecret);
    expect(outside.status).toBe(404);
    expect(((await outside.json()) as Body).code).toBe('not_found');
    expect((await read('prj_b', secret)).status).toBe(200);
  });
});
