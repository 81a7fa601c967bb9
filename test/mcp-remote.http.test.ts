// The remote MCP endpoint (POST/GET/DELETE /mcp) as an MCP client meets it: the official SDK's
// Client over StreamableHTTPClientTransport, against the running platform, with the platform's
// own tokens. Each token is offered exactly the tools it may call, calls one it holds and is
// refused one it does not; the lead → sent proposal flow runs through the endpoint with its
// confirmation, and the same send replayed leaves the budgets unchanged. The client validates
// each structuredContent against the tool's outputSchema.
import { afterAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { eventually, newMember, type Body } from './support/harness.ts';
import { newCustomer, newProject } from './support/projects.ts';
import { suiteTenant } from './support/suite-tenant.ts';

const { platform, tenantId, api } = await suiteTenant('Remote MCP Co');
const clients: Client[] = [];
afterAll(async () => {
  for (const client of clients) await client.close();
});

async function connect(secret: string, query = ''): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${platform.url}/mcp${query}`), {
    requestInit: { headers: { authorization: `Bearer ${secret}` } },
  });
  const client = new Client({ name: 'fieldops-remote-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const names = async (client: Client): Promise<string[]> =>
  (await client.listTools()).tools.map((tool) => tool.name).sort();

/** The JSON of a tool answer's text content. */
const bodyOf = (result: CallToolResult): Body => {
  const [first] = result.content;
  return JSON.parse(first?.type === 'text' ? first.text : '{}') as Body;
};

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

/** Every operation, as the manifest lists them to no token. */
const everyTool = (
  (await platform.anonymous.get('/openapi.json?format=tools&dialect=mcp')).body.tools as {
    name: string;
    annotations: { readOnlyHint: boolean };
  }[]
).map((tool) => tool.name);

const ownerMember = await newMember(platform, tenantId, 'owner@remote.example', 'Owner');
const owner = await platform.token(tenantId, { role: 'Owner', memberId: ownerMember });
const leadReader = await platform.token(tenantId, { role: 'Manager', permissions: { lead: ['read'] } });
const project = await newProject(api, await newCustomer(api));
const restricted = await platform.token(tenantId, { role: 'Manager', projectIds: [project.id] });

describe('authentication', () => {
  it('answers 401 with WWW-Authenticate naming the protected resource metadata, which names /mcp', async () => {
    const res = await fetch(`${platform.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
    });
    expect(res.status).toBe(401);
    const challenge = res.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer /);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1] ?? '';
    expect(metadataUrl).toBe(`${platform.url}/.well-known/oauth-protected-resource/mcp`);
    const metadata = (await (await fetch(metadataUrl)).json()) as Body;
    expect(metadata).toMatchObject({ resource: `${platform.url}/mcp`, bearer_methods_supported: ['header'] });
  });

  it('answers 401 to a token that is not recognised', async () => {
    const res = await fetch(`${platform.url}/mcp`, {
      method: 'POST',
      headers: { authorization: 'Bearer fo_live_nonsense', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });
});

describe('tools per token', () => {
  it('offers an Owner token every tool, each a valid MCP tool, with instructions', async () => {
    const client = await connect(owner.secret);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...everyTool].sort());
    for (const tool of tools) expect(ToolSchema.safeParse(tool).success).toBe(true);
    expect(client.getInstructions()).toMatch(/confirmToken/);
    const me = await call(client, 'getMe');
    expect(me.isError).toBe(false);
    expect(me.structuredContent).toMatchObject({ ok: true, budgets: expect.anything() });
  });

  it('offers a lead-read token only the lead reads and the reads every token makes', async () => {
    const client = await connect(leadReader.secret);
    const held = await names(client);
    expect(held).toEqual(expect.arrayContaining(['getLead', 'listLeads', 'getMe', 'getCapabilities']));
    expect(held).not.toContain('createLead');
    expect(held).not.toContain('listCustomers');
    const writes = held.filter((name) => /^(create|update|delete|send|convert|qualify)/.test(name));
    expect(writes).toEqual([]);
    const listed = await call(client, 'listLeads');
    expect(listed.isError).toBe(false);
    const refused = await call(client, 'createLead', { name: 'Nope' });
    expect(refused.isError).toBe(true);
    expect(bodyOf(refused)).toMatchObject({ ok: false, code: 'out_of_scope' });
    expect((await api.get('/leads?q=Nope')).body.items).toEqual([]);
  });

  it('offers a project-restricted token no tenant-wide write, and its own project', async () => {
    const client = await connect(restricted.secret);
    const held = await names(client);
    expect(held).not.toContain('createExport');
    expect(held).toContain('getProject');
    expect(everyTool).toContain('createExport');
    const read = await call(client, 'getProject', { id: project.id });
    expect(read.isError).toBe(false);
    const refused = await call(client, 'createExport');
    expect(refused.isError).toBe(true);
    expect(bodyOf(refused)).toMatchObject({ ok: false, code: 'out_of_scope' });
  });

  it('narrows to read-only and to tags as the client chooses, keeping the universal reads', async () => {
    const readOnly = await names(await connect(owner.secret, '?readOnly=true'));
    expect(readOnly).toContain('getLead');
    expect(readOnly).not.toContain('createLead');
    const leads = await names(await connect(owner.secret, '?tag=Leads'));
    expect(leads).toEqual(expect.arrayContaining(['createLead', 'getLead', 'getMe', 'listChanges']));
    expect(leads).not.toContain('createDeal');
  });

  it('filters the HTTP manifest by the token sent with it', async () => {
    const tools = (await leadReader.api.get('/openapi.json?format=tools')).body.tools as { name: string }[];
    expect(tools.map((tool) => tool.name)).toContain('getLead');
    expect(tools.map((tool) => tool.name)).not.toContain('createLead');
    expect(tools.length).toBeLessThan(everyTool.length);
  });
});

describe('resources and prompts', () => {
  it('offers a resource per state machine, from the registry, and the confirmation protocol as a prompt', async () => {
    const client = await connect(owner.secret);
    const { resources } = await client.listResources();
    const deals = resources.find((resource) => resource.uri === 'fieldops://state-machines/deals/stage');
    expect(deals).toBeDefined();
    const read = await client.readResource({ uri: deals?.uri ?? '' });
    const [content] = read.contents;
    const machine = JSON.parse(content && 'text' in content ? content.text : '{}') as Body;
    expect(machine.tools).toEqual(expect.arrayContaining(['advanceDeal']));
    expect((machine.moves as Record<string, string[]>).lead).toEqual(expect.arrayContaining(['won']));
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toContain('confirmation-protocol');
    const prompt = await client.getPrompt({ name: 'confirmation-protocol' });
    expect(JSON.stringify(prompt.messages)).toContain('confirmToken');
  });
});

describe('a manifest an agent can afford', () => {
  it.each([
    ['br', '/api/v1/openapi.json?format=tools&dialect=mcp'],
    ['gzip', '/api/v1/openapi.json?format=tools'],
    ['gzip', '/api/v1/openapi.json'],
  ])('answers %s for %s when the client accepts it', async (encoding, path) => {
    const plain = await (
      await fetch(`${platform.url}${path}`, { headers: { 'accept-encoding': 'identity' } })
    ).text();
    const res = await fetch(`${platform.url}${path}`, { headers: { 'accept-encoding': encoding } });
    expect(res.headers.get('content-encoding')).toBe(encoding);
    // fetch decodes it: the same document, sent in a fraction of the bytes.
    expect(await res.text()).toBe(plain);
    expect(plain.length).toBeGreaterThan(100_000);
  });
});

describe('sessions', () => {
  it('refuses another token the session id of a token, and ends a session on DELETE', async () => {
    const client = await connect(owner.secret);
    const transport = client.transport as StreamableHTTPClientTransport;
    const sessionId = transport.sessionId ?? '';
    expect(sessionId).not.toBe('');
    const foreign = await fetch(`${platform.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${leadReader.secret}`,
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-06-18',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(foreign.status).toBe(404);
    await transport.terminateSession();
    await expect(client.listTools()).rejects.toThrow();
  });

  it('sends progress notifications for a call that asks for them', async () => {
    const client = await connect(owner.secret);
    const progress: number[] = [];
    const result = await client.callTool({ name: 'listLeads', arguments: {} }, undefined, {
      onprogress: (note) => progress.push(note.progress),
    });
    expect(result.isError).toBe(false);
    expect(progress.length).toBeGreaterThanOrEqual(1);
  });

  it('cancels a call the client abandons, and the session goes on', async () => {
    const client = await connect(owner.secret);
    const abort = new AbortController();
    // Abandoned once the server says the call started: the client sends notifications/cancelled,
    // and the server abandons the HTTP call it was making.
    const abandoned = client.callTool({ name: 'listLeads', arguments: {} }, undefined, {
      signal: abort.signal,
      onprogress: () => abort.abort('changed my mind'),
    });
    await expect(abandoned).rejects.toThrow();
    expect((await call(client, 'getMe')).isError).toBe(false);
  });
});

describe('the lead → sent proposal flow through the remote endpoint', () => {
  it('confirms the send, and the same send replayed costs nothing', async () => {
    const client = await connect(owner.secret);
    const agent = { agentRunId: 'remote-run-1', agentModel: 'test-model' };
    const lead = await call(client, 'createLead', {
      name: 'Remote Lead',
      email: 'remote@lead.example',
      ...agent,
    });
    expect(lead.isError).toBe(false);
    const leadId = ((lead.structuredContent as Body).lead as Body).id as string;
    const converted = await call(client, 'convertLead', { id: leadId, idempotencyKey: `convert-${leadId}` });
    expect(converted.isError).toBe(false);
    const { customer, deal } = converted.structuredContent as { customer: Body; deal: Body };
    const drafted = await call(client, 'createProposal', {
      customerId: customer.id,
      dealId: deal.id,
      title: 'Roof survey',
      lines: [{ description: 'Roof survey flight', quantity: 1, unitPriceCents: 45000 }],
      ...agent,
    });
    expect(drafted.isError).toBe(false);
    const id = ((drafted.structuredContent as Body).proposal as Body).id as string;
    const send = { id, opId: `send-${id}`, ...agent };

    const first = await call(client, 'sendProposal', send);
    expect(first.isError).toBe(true);
    // The refusal is structuredContent, held by the client to the tool's output schema.
    const demand = first.structuredContent as Body;
    expect(demand).toEqual(bodyOf(first));
    expect(demand).toMatchObject({ code: 'confirmation_required', willDo: { effect: 'irreversible' } });
    const sent = await call(client, 'sendProposal', {
      ...send,
      confirmToken: demand.confirmToken,
      agentConfirmedBy: 'owner@remote.example',
    });
    expect(sent.isError).toBe(false);
    expect((sent.structuredContent as Body).proposal).toMatchObject({ status: 'sent' });

    // An illegal move: the structured refusal says which moves are legal and the tool for each.
    const illegal = await call(client, 'advanceDeal', { id: deal.id, trigger: 'deliver' });
    expect(illegal.isError).toBe(true);
    expect(illegal.structuredContent).toMatchObject({
      ok: false,
      code: 'conflict',
      legalMoves: expect.arrayContaining([expect.objectContaining({ operationId: expect.any(String) })]),
    });

    const budgets = async () => ((await call(client, 'getMe')).structuredContent as Body).budgets;
    const before = await budgets();
    expect((before as Record<string, Body>).emails?.used).toBe(1);
    const replayed = await call(client, 'sendProposal', send);
    expect(replayed.isError).toBe(false);
    expect(replayed.structuredContent).toMatchObject({ replayed: true, proposal: { id, status: 'sent' } });
    const after = await budgets();
    expect(after).toEqual({
      ...(before as Body),
      ...Object.fromEntries(
        Object.entries(after as Record<string, Body>).map(([kind, state]) => [
          kind,
          { ...(before as Record<string, Body>)[kind], resetsInSeconds: state.resetsInSeconds },
        ]),
      ),
    });

    // The writes are audited under the owner's token and the run id the tools carried. The audit
    // service records them from the event stream, so the last may arrive a moment after its answer
    // (through a cluster, a consumer in another process).
    type Entry = { operation: string; action: string; tokenId: string };
    const operations = ['createLead', 'createProposal', 'sendProposal'];
    const entries = await eventually(async () => {
      const found = (await api.get('/audit?runId=remote-run-1')).body.items as Entry[];
      return operations.every((op) => found.some((entry) => entry.operation === op)) ? found : undefined;
    }, 15_000);
    expect(entries.every((entry) => entry.tokenId === owner.id)).toBe(true);
    expect(entries.filter((entry) => entry.action === 'proposal.sent')).toHaveLength(1);
  });
});
