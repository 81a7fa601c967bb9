// An MCP server over stdio, for a client that cannot reach the gateway's remote endpoint
// (POST /mcp, docs/agents.md): the same server (gateway/src/mcp/mcp-server.ts), offered the tools
// the manifest lists for this token, each call performed through the API by the generic executor.
//   FIELDOPS_URL=http://127.0.0.1:8080 FIELDOPS_TOKEN=... node scripts/agents/mcp-server.ts [tag=Leads]
import { ToolExecutor } from '@fieldops/gateway';
import { fieldopsMcpServer } from '@fieldops/gateway/mcp';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

export async function stdioMcpServer(baseUrl: string, token: string, filter: Record<string, string> = {}) {
  const executor = await ToolExecutor.load(baseUrl, token, filter);
  const query = new URLSearchParams({ format: 'tools', dialect: 'mcp', ...filter });
  const res = await fetch(`${baseUrl}/api/v1/openapi.json?${query}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const { tools } = (await res.json()) as { tools: object[] };
  return fieldopsMcpServer({
    tools,
    call: (name, args, { signal }) => executor.call(name, args, { signal }),
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const filter = Object.fromEntries(
    process.argv.slice(2).map((arg) => arg.split('=', 2) as [string, string]),
  );
  const server = await stdioMcpServer(
    process.env.FIELDOPS_URL ?? 'http://127.0.0.1:8080',
    process.env.FIELDOPS_TOKEN ?? '',
    filter,
  );
  await server.connect(new StdioServerTransport());
}
