// A generic executor that knows only the default tool manifest (scripts/agents/tool-executor.ts)
// drives the real platform: customer, deal, proposal, send, 409 confirmation_required, and the
// confirmation through the input the manifest maps to the header the 409 names; a dry-run lead;
// the openai dialect's arguments through the same executor. No header is named here.
import { describe, expect, it } from '@jest/globals';
import { inputForHeader, ToolExecutor } from '../scripts/agents/tool-executor.ts';
import { eventually } from './support/harness.ts';
import { suiteTenant } from './support/suite-tenant.ts';

const { platform, token } = await suiteTenant('Tool Executor Co');
const executor = await ToolExecutor.load(platform.url, token);
const run = `run-${Date.now()}`;

describe('a generic executor over the default manifest', () => {
  it('creates a customer, a deal and a proposal, sends it and confirms through the mapped input', async () => {
    const agent = { agentRunId: run, agentTask: 'Send the roof survey proposal', agentModel: 'test-model' };
    const customer = await executor.call('createCustomer', {
      name: 'Dana Roofs',
      email: 'dana@roofs.example',
      ...agent,
    });
    expect(customer.status).toBe(201);
    const customerId = (customer.body.customer as { id: string }).id;
    const deal = await executor.call('createDeal', { customerId, ...agent });
    expect(deal.status).toBe(201);
    const proposal = await executor.call('createProposal', {
      customerId,
      dealId: (deal.body.deal as { id: string }).id,
      title: 'Roof survey',
      lines: [{ description: 'Roof survey flight', quantity: 1, unitPriceCents: 45000 }],
      ...agent,
    });
    expect(proposal.status).toBe(201);
    const id = (proposal.body.proposal as { id: string }).id;

    const first = await executor.call('sendProposal', { id, ...agent });
    expect([first.status, first.body.code]).toEqual([409, 'confirmation_required']);
    expect(first.body.willDo).toMatchObject({ effect: 'irreversible' });
    const input = inputForHeader(executor.tool('sendProposal'), String(first.body.confirmHeader));
    expect(input).toEqual(expect.any(String));

    const done = await executor.call('sendProposal', {
      id,
      ...agent,
      agentConfirmedBy: 'dana.manager@roofs.example',
      [input as string]: first.body.confirmToken,
    });
    expect(done.status).toBe(200);
    expect(done.body.proposal).toMatchObject({ status: 'sent' });

    // Every write of the run is in the audit trail under the run id the tools carried. The audit
    // service records them from the event stream, so the send may arrive a moment after its answer
    // (through a cluster, a consumer in another process).
    const entries = await eventually(async () => {
      const audit = await executor.call('listAudit', { runId: run });
      expect(audit.status).toBe(200);
      const found = audit.body.items as { operation?: string; agent?: Record<string, string> }[];
      return found.length >= 4 && JSON.stringify(found).includes('dana.manager@roofs.example')
        ? found
        : undefined;
    }, 15_000);
    expect(entries.map((entry) => JSON.stringify(entry)).join()).toContain('dana.manager@roofs.example');
  });

  it('dry-runs a lead: nothing is created', async () => {
    const schema = executor.tool('createLead').input_schema.properties as Record<string, { enum?: string[] }>;
    const rehearse = Object.fromEntries(
      Object.entries(executor.tool('createLead')['x-http'].location)
        .filter(([name, where]) => where.startsWith('header:') && schema[name]?.enum?.length === 1)
        .map(([name]) => [name, schema[name]?.enum?.[0]]),
    );
    expect(Object.keys(rehearse)).toHaveLength(1);
    const dry = await executor.call('createLead', { name: 'Rehearsed Lead', ...rehearse });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ ok: true, dryRun: true, applied: false, willDo: expect.any(String) });
    const leads = await executor.call('listLeads', { q: 'Rehearsed Lead' });
    expect(leads.body.items).toEqual([]);
  });

  it('takes the openai dialect arguments (nulls for what is left out) through the same executor', async () => {
    const openai = (await platform.anonymous.get('/openapi.json?format=tools&dialect=openai')).body.tools as {
      name: string;
      parameters: { properties: Record<string, unknown> };
    }[];
    const createLead = openai.find((tool) => tool.name === 'createLead');
    const args = Object.fromEntries(
      Object.keys(createLead?.parameters.properties ?? {}).map((name) => [name, null]),
    );
    const made = await executor.callStrict('createLead', { ...args, name: 'Strict Lead' });
    expect(made.status).toBe(201);
    expect(made.body.lead).toMatchObject({ name: 'Strict Lead' });
  });

  it('narrows the manifest by tag and kind, and refuses an unknown one', async () => {
    const leads = await ToolExecutor.load(platform.url, token, { tag: 'Leads' });
    expect(leads.tools.map((tool) => tool.name).sort()).toEqual(
      ['convertLead', 'createLead', 'getLead', 'listLeads', 'qualifyLead', 'updateLead'].sort(),
    );
    const mcp = await platform.anonymous.get('/openapi.json?format=tools&dialect=mcp&kind=deal');
    const names = (mcp.body.tools as { name: string }[]).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['createDeal', 'sendProposal', 'issueInvoice']));
    expect(names).not.toContain('createLead');
    const unknown = await platform.anonymous.get('/openapi.json?format=tools&tag=Nope');
    expect([unknown.status, unknown.body.code]).toEqual([400, 'field_invalid_enum']);
    const stray = await platform.anonymous.get('/openapi.json?dialect=mcp');
    expect([stray.status, stray.body.code]).toEqual([400, 'field_invalid']);
  });
});
