// Every error code of the catalogue (services/kit/src/errors.ts) as an agent meets it through the
// remote MCP endpoint: the SDK's streamable HTTP client calls a tool, and the answer is isError
// with structuredContent carrying the code, retryable as the spec's table fixes it, and the
// fields an agent acts on (legalMoves, current, convertedTo, confirmToken, willDo, budget ...).
// The table below is keyed by the catalogue's codes: a new code without a case (or a stated
// reason no tool call can produce it) fails the typecheck and the first test.
import { afterAll, describe, expect, it } from '@jest/globals';
import { ERROR_CATALOGUE, type ErrorCode } from '@fieldops/kit';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Body } from './support/harness.ts';
import { suiteTenant } from './support/suite-tenant.ts';

// One compute run an hour: the second qualifyLead spends a budget that is gone.
const { platform, tenantId, api } = await suiteTenant('MCP Errors Co', { FIELDOPS_BUDGET_COMPUTE: '1' });
const clients: Client[] = [];
afterAll(async () => {
  for (const client of clients) await client.close();
});

async function connect(secret: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${platform.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${secret}` } },
  });
  const client = new Client({ name: 'fieldops-errors-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const manager = await connect((await platform.token(tenantId, { role: 'Manager' })).secret);
const viewer = await connect((await platform.token(tenantId, { role: 'Viewer' })).secret);
const staff = await connect((await platform.token(tenantId, { role: 'Staff' })).secret);
const leadReader = await connect(
  (await platform.token(tenantId, { role: 'Manager', permissions: { lead: ['read'] } })).secret,
);

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

async function newLead(name: string): Promise<Body> {
  const created = await call(manager, 'createLead', { name, email: `${name.replace(/\W/g, '')}@x.example` });
  return (created.structuredContent as Body).lead as Body;
}

/** A tool call that must fail with the code, and the members its envelope must carry. */
interface Case {
  name: string;
  run: () => Promise<CallToolResult>;
  carries?: Body;
}

/** Why no tool call can produce a code: the answer comes before a tool runs, or only from a fault. */
type Unreachable = { unreachable: string };

const AUTH_FIRST =
  'every request to /mcp authenticates before a tool runs: a 401 with WWW-Authenticate (mcp-remote.http.test.ts)';

const CASES: Record<ErrorCode, Case[] | Unreachable> = {
  no_credential: { unreachable: AUTH_FIRST },
  invalid_token: { unreachable: AUTH_FIRST },
  revoked: { unreachable: AUTH_FIRST },
  expired: { unreachable: AUTH_FIRST },
  no_session: { unreachable: 'session-only paths are the portal and console, never tools' },
  read_only: [
    {
      name: 'a Viewer creating a lead',
      run: () => call(viewer, 'createLead', { name: 'Nope' }),
      carries: { required: { action: 'create', kind: 'lead' } },
    },
  ],
  out_of_scope: [
    {
      name: 'a lead-read token creating a lead',
      run: () => call(leadReader, 'createLead', { name: 'Nope' }),
      carries: { required: { action: 'create', kind: 'lead' } },
    },
  ],
  role_denied: [
    {
      name: 'a Staff token starting a tenant export',
      run: () => call(staff, 'createExport'),
      carries: { required: { action: expect.any(String), kind: expect.any(String) } },
    },
  ],
  invalid_json: { unreachable: 'the executor always sends JSON it serialised itself' },
  invalid_body: { unreachable: 'the executor always sends a JSON object built from named inputs' },
  field_required: [
    {
      name: 'a lead without a name',
      run: () => call(manager, 'createLead', { email: 'nameless@x.example' }),
      carries: { field: 'name' },
    },
  ],
  field_invalid: [
    {
      name: 'a lead with an email that is not one',
      run: () => call(manager, 'createLead', { name: 'Bad Email', email: 'not-an-email' }),
      carries: { field: 'email' },
    },
  ],
  field_invalid_enum: [
    {
      name: 'a deal advanced by a trigger the machine does not know',
      run: async () => call(manager, 'advanceDeal', { id: (await dealAtLead()).id, trigger: 'teleport' }),
      carries: { field: 'trigger', allowed: expect.arrayContaining(['win']) },
    },
  ],
  field_too_long: [
    {
      name: 'a lead name over its limit',
      run: () => call(manager, 'createLead', { name: 'x'.repeat(5_000) }),
      carries: { field: 'name' },
    },
  ],
  unknown_field: [
    {
      name: 'an input the tool does not take',
      run: () => call(manager, 'createLead', { name: 'Extra', shoeSize: 44 }),
      carries: { field: 'shoeSize', allowed: expect.arrayContaining(['name', 'email']) },
    },
  ],
  not_found: [
    {
      name: 'a lead that does not exist',
      run: () => call(manager, 'getLead', { id: 'lead_does_not_exist' }),
    },
  ],
  payload_too_large: {
    unreachable:
      '/mcp reads at most 100 KB, a tenth of the API body limit: the JSON-RPC request is refused first',
  },
  unsupported_media_type: { unreachable: 'the executor always sends application/json, unencoded' },
  principal_unbound: [
    {
      name: 'a token bound to no member reading a saved report',
      run: () => call(manager, 'getReport', { id: 'report_any' }),
    },
  ],
  conflict: [
    {
      name: 'an illegal trigger: legalTriggers, and legalMoves naming the tool of each',
      run: async () => call(manager, 'advanceDeal', { id: (await dealAtLead()).id, trigger: 'deliver' }),
      carries: {
        stage: 'lead',
        legalTriggers: expect.arrayContaining(['win']),
        legalMoves: expect.arrayContaining([
          expect.objectContaining({ trigger: 'win', operationId: 'advanceDeal' }),
        ]),
      },
    },
    {
      name: 'a lead already converted: convertedTo names the customer and deal it became',
      run: async () => {
        const lead = await newLead('Twice Converted');
        const first = await call(manager, 'convertLead', { id: lead.id, idempotencyKey: `a-${lead.id}` });
        expect(first.isError).toBe(false);
        return call(manager, 'convertLead', { id: lead.id, idempotencyKey: `b-${lead.id}` });
      },
      carries: {
        status: 'Converted',
        convertibleFrom: expect.any(Array),
        convertedTo: {
          customerId: expect.any(String),
          dealId: expect.any(String),
          convertedAt: expect.any(String),
        },
      },
    },
    {
      name: 'a stale ifMatch: current is the record as it is now',
      run: async () => {
        const lead = await newLead('Stale Etag');
        return call(manager, 'updateLead', { id: lead.id, ifMatch: '"stale"', phone: '+15550100' });
      },
      carries: { current: expect.objectContaining({ name: 'Stale Etag' }) },
    },
  ],
  confirmation_required: [
    {
      name: 'a proposal send: confirmToken and willDo, the sentence naming the confirmToken input',
      run: async () => {
        const { customer, deal } = await converted();
        const drafted = await call(manager, 'createProposal', {
          customerId: customer.id,
          dealId: deal.id,
          title: 'Survey',
          lines: [{ description: 'Flight', quantity: 1, unitPriceCents: 1000 }],
        });
        const id = ((drafted.structuredContent as Body).proposal as Body).id as string;
        return call(manager, 'sendProposal', { id, opId: `send-${id}` });
      },
      carries: {
        confirmToken: expect.stringMatching(/^cfm_/),
        willDo: expect.objectContaining({ effect: 'irreversible' }),
        error: expect.stringContaining('confirmToken'),
      },
    },
  ],
  precondition_required: [
    {
      name: 'an amendment without ifMatch: the sentence names the ifMatch input, not the header',
      run: async () => call(manager, 'updateLead', { id: (await newLead('No Etag')).id, phone: '+15550101' }),
      carries: { header: 'If-Match', error: expect.stringContaining('ifMatch') },
    },
  ],
  rate_limited: [
    {
      name: 'a compute budget spent: the budget named',
      run: async () => {
        const lead = await newLead('Budget Spender');
        expect((await call(manager, 'qualifyLead', { id: lead.id })).isError).toBe(false);
        return call(manager, 'qualifyLead', { id: lead.id });
      },
      carries: { budget: 'compute', retryAfterSeconds: expect.any(Number) },
    },
  ],
  unavailable: { unreachable: 'a service down: a fault, not an input (test/resilience suites)' },
  outcome_unknown: { unreachable: 'a store failover mid-commit: a fault, not an input' },
  internal: { unreachable: 'a bug of ours: no input may produce it' },
};

/** A converted lead's customer and its opening deal (at stage lead). */
async function converted(): Promise<{ customer: Body; deal: Body }> {
  const lead = await newLead(`Converted ${Math.random().toString(36).slice(2)}`);
  const done = await call(manager, 'convertLead', { id: lead.id, idempotencyKey: `convert-${lead.id}` });
  expect(done.structuredContent).toMatchObject({ ok: true });
  return done.structuredContent as { customer: Body; deal: Body };
}

const dealAtLead = async (): Promise<Body> => (await converted()).deal;

const reachable = Object.entries(CASES).flatMap(([code, cases]) =>
  Array.isArray(cases) ? cases.map((each) => [code as ErrorCode, each.name, each] as const) : [],
);

describe('the error table through the remote MCP endpoint', () => {
  it('has a case, or a stated reason it cannot be reached, for every code of the catalogue', () => {
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(ERROR_CATALOGUE).sort());
    const unreachable = Object.values(CASES).filter((cases) => !Array.isArray(cases));
    for (const { unreachable: why } of unreachable as Unreachable[]) expect(why.length).toBeGreaterThan(20);
  });

  it.each(reachable)('%s: %s', async (code, _name, { run, carries }) => {
    const result = await run();
    expect(result.isError).toBe(true);
    const envelope = result.structuredContent as Body;
    expect(envelope).toMatchObject({
      ok: false,
      code,
      retryable: ERROR_CATALOGUE[code].retryable,
      error: expect.any(String),
      ...carries,
    });
    // The text is the same envelope, for a client that reads only content.
    const [text] = result.content;
    expect(JSON.parse(text?.type === 'text' ? text.text : '{}')).toEqual(envelope);
    // A sentence served to a tool names inputs and tools, never a protocol header.
    expect(envelope.error).not.toMatch(/x-service-confirm|If-Match header|Idempotency-Key header/i);
  });
});

describe('conflicts that repeating the call cannot change', () => {
  it('are named in the tools that can answer them, with the fields to read', async () => {
    const { tools } = await manager.listTools();
    const text = (name: string) => tools.find((tool) => tool.name === name)?.description ?? '';
    expect(text('advanceDeal')).toMatch(/On conflict, use legalMoves; a repeat fails/);
    expect(text('updateLead')).toMatch(/On conflict, use legalMoves; a repeat fails/);
    expect(text('convertLead')).toMatch(/repeating the call cannot change: convertedTo/);
    expect(manager.getInstructions()).toMatch(/convertedTo/);
  });
});

describe('the same refusal over HTTP', () => {
  it('keeps naming the header the HTTP caller sends', async () => {
    const lead = (await api.post('/leads', { name: 'Http Etag' })).body.lead as Body;
    const res = await api.patch(`/leads/${String(lead.id)}`, { phone: '+15550102' });
    expect(res.status).toBe(428);
    expect(res.body.error).toMatch(/If-Match header/);
  });
});
