// The MCP server (scripts/agents/mcp-server.ts) as an MCP client meets it: the official SDK's
// Client spawns it over stdio (StdioClientTransport) against a running platform, lists the tools
// (the SDK parses each with its ToolSchema) and calls a write tool and a read tool end to end. The
// client validates each structuredContent against the tool's outputSchema, so the answers are
// held to what the manifest promised.
import { afterAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import { REPO_ROOT } from './support/platform-child.ts';
import { suiteTenant } from './support/suite-tenant.ts';

const { platform, token } = await suiteTenant('MCP Server Co');

const transport = new StdioClientTransport({
  command: process.execPath,
  args: [`${REPO_ROOT}scripts/agents/mcp-server.ts`],
  cwd: REPO_ROOT,
  env: { ...getDefaultEnvironment(), FIELDOPS_URL: platform.url, FIELDOPS_TOKEN: token },
  stderr: 'pipe',
});
const client = new Client({ name: 'fieldops-test', version: '1.0.0' });
// The server loads its sources (type stripping) and the manifest before it answers: seconds on a busy machine.
await client.connect(transport, { timeout: 60_000 });
afterAll(() => client.close());

/** The JSON text of a tool answer's first content item. */
function textOf(result: Awaited<ReturnType<Client['callTool']>>): Record<string, unknown> {
  const [first] = Array.isArray(result.content) ? result.content : [];
  expect(first).toMatchObject({ type: 'text' });
  return JSON.parse(String((first as { text: unknown }).text)) as Record<string, unknown>;
}

describe('the MCP server over stdio, through the official SDK client', () => {
  it('names itself and lists every tool, each parsing with the SDK ToolSchema', async () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'fieldops' });
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(50);
    for (const tool of tools) expect(ToolSchema.safeParse(tool).success).toBe(true);
    const createLead = tools.find((tool) => tool.name === 'createLead');
    expect(createLead?.annotations).toMatchObject({ readOnlyHint: false });
    expect(tools.find((tool) => tool.name === 'getLead')?.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('creates a lead (write tool) and reads it back (read tool)', async () => {
    const made = await client.callTool({
      name: 'createLead',
      arguments: { name: 'Mcp Lead', email: 'mcp@lead.example', agentRunId: 'mcp-run-1' },
    });
    expect(made.isError).toBe(false);
    const lead = (made.structuredContent as { lead: { id: string; name: string } } | undefined)?.lead;
    expect(lead).toMatchObject({ name: 'Mcp Lead' });
    expect(textOf(made)).toMatchObject({ ok: true, lead: { id: lead?.id } });

    const read = await client.callTool({ name: 'getLead', arguments: { id: lead?.id } });
    expect(read.isError).toBe(false);
    expect(read.structuredContent).toMatchObject({ ok: true, lead: { id: lead?.id, name: 'Mcp Lead' } });
  });

  it('answers a refusal as an error result carrying the envelope', async () => {
    const missing = await client.callTool({ name: 'getLead', arguments: { id: 'no-such-lead' } });
    expect(missing.isError).toBe(true);
    // The envelope is structuredContent too (issue 36), checked by the client against the output schema.
    expect(missing.structuredContent).toMatchObject({ ok: false, code: 'not_found', retryable: false });
    expect(textOf(missing)).toMatchObject({ ok: false, code: 'not_found' });
  });
});
