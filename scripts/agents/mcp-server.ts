// An MCP server (stdio) over a running platform: it lists the tools of
// GET /api/v1/openapi.json?format=tools&dialect=mcp and performs each call with the generic
// executor (tool-executor.ts). Any MCP client can load it (docs/agents.md):
//   FIELDOPS_URL=http://127.0.0.1:8080 FIELDOPS_TOKEN=... npx tsx scripts/agents/mcp-server.ts [tag=Leads]
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { ToolExecutor } from './tool-executor.js';

export async function fieldopsMcpServer(baseUrl: string, token: string, filter: Record<string, string> = {}) {
  const executor = await ToolExecutor.load(baseUrl, token, filter);
  const query = new URLSearchParams({ format: 'tools', dialect: 'mcp', ...filter });
  const tools = ((await (await fetch(`${baseUrl}/api/v1/openapi.json?${query}`)).json()) as { tools: Tool[] })
    .tools;
  const server = new Server({ name: 'fieldops', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const answer = await executor.call(request.params.name, request.params.arguments ?? {});
    const ok = answer.body.ok === true;
    return {
      content: [{ type: 'text' as const, text: JSON.stringify(answer.body) }],
      ...(ok ? { structuredContent: answer.body } : {}),
      isError: !ok,
    };
  });
  return server;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const filter = Object.fromEntries(
    process.argv.slice(2).map((arg) => arg.split('=', 2) as [string, string]),
  );
  const server = await fieldopsMcpServer(
    process.env.FIELDOPS_URL ?? 'http://127.0.0.1:8080',
    process.env.FIELDOPS_TOKEN ?? '',
    filter,
  );
  await server.connect(new StdioServerTransport());
}
