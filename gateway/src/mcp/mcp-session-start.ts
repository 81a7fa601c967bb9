// Opening an MCP session: the tools the caller may call, narrowed by its choice, served by the SDK's
// streamable HTTP transport. The router (mcp.router.ts) loads this file on the first sessionless
// POST, so the SDK's module graph is not part of the gateway's start from its sources (`npm
// start`, the topology, the tests). The image's bundle still loads it at start: esbuild hoists the
// package imports of a lazily imported module to the bundle's top.
import { randomUUID } from 'node:crypto';
import { AppError } from '@fieldops/kit';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Request, Response } from 'express';
import { bearerSecret } from '../identity/authenticate.ts';
import type { EndpointDef } from '../endpoint/types.ts';
import type { Caller } from '../identity/model.ts';
import { capability } from '../pipeline/capability.ts';
import type { ToolCatalogue } from '../openapi/tool-catalogue.ts';
import { selectToolEndpoints, type ToolChoice } from '../openapi/tool-selection.ts';
import { CONFIRMATION_PROMPT, machineResources } from './mcp-guides.ts';
import type { McpDeps } from './mcp.router.ts';
import { fieldopsMcpServer, type Refusal } from './mcp-server.ts';
import type { McpSessions } from './mcp-sessions.ts';
import { ToolExecutor, type ManifestTool } from './tool-executor.ts';

export { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

/** This gateway's own API, reached over the socket the request came in on (the address it listens on). */
function selfBase(req: Request): string {
  const address = (req.socket.localAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  const host = address.includes(':') ? `[${address}]` : address;
  return `http://${host}:${req.socket.localPort ?? 80}`;
}

export interface McpState {
  deps: McpDeps;
  catalogue: ToolCatalogue;
  sessions: McpSessions;
  terms: (text: string) => string;
}

export async function openSession(
  state: McpState,
  exchange: { req: Request; res: Response; caller: Caller },
): Promise<void> {
  const { deps, catalogue, sessions, terms } = state;
  const { req, res, caller } = exchange;
  const endpoints = selectToolEndpoints(deps.registry, caller, deps.authorize, choiceOf(deps.registry, req));
  const executor = new ToolExecutor(
    selfBase(req),
    bearerSecret(req.headers.authorization),
    catalogue.toolsOf('default', endpoints) as ManifestTool[],
  );
  const server = fieldopsMcpServer({
    tools: catalogue.toolsOf('mcp', endpoints),
    call: (name, args, { signal }) => executor.call(name, args, { signal }),
    refusal: (name) => refusalOf(deps, caller, name),
    resources: machineResources(deps.registry),
    prompts: [CONFIRMATION_PROMPT],
    terms,
  });
  const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) =>
      sessions.add(id, { tokenId: caller.tokenId, transport, lastUsed: Date.now() }),
    onsessionclosed: (id) => sessions.remove(id),
  });
  transport.onclose = () => {
    if (transport.sessionId) sessions.remove(transport.sessionId);
  };
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
}

/** The refusals of authorize(): each names the scope it needs (spec: a denial adds required). */
const DENIALS: readonly string[] = ['read_only', 'out_of_scope', 'role_denied'];

/** Why the caller is not offered `name` (the refusal GET /capabilities gives), or undefined for no such tool. */
function refusalOf(deps: McpDeps, caller: Caller, name: string): Refusal | undefined {
  const endpoint = deps.registry.find((candidate) => candidate.operationId === name);
  if (!endpoint) return undefined;
  const decision = capability(endpoint, caller, deps.authorize);
  if ('refusal' in decision && decision.refusal) {
    const { scope } = decision;
    const denied = DENIALS.includes(decision.refusal.code) && scope;
    return {
      ...decision.refusal,
      ...(denied ? { required: { action: scope.action, kind: scope.kind } } : {}),
    };
  }
  return {
    code: 'field_invalid',
    reason: `${name} was left out of the tool set this session chose (read-only or tags); open a session without that choice to call it.`,
  };
}

const listOf = (text: string | undefined): string[] =>
  (text ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/**
 * The tool set a client chose when it opened the session: `?tag=Leads,Deals` or the header
 * X-MCP-Tags, and `?readOnly=true` or X-MCP-Readonly: true. An unknown tag is refused with the tags there are.
 */
export function choiceOf(registry: readonly EndpointDef[], req: Request): ToolChoice {
  const query = req.query as Record<string, string | undefined>;
  const tags = listOf(query.tag ?? req.get('x-mcp-tags'));
  const readOnlyText = (query.readOnly ?? req.get('x-mcp-readonly') ?? '').toLowerCase();
  if (!['', 'true', 'false'].includes(readOnlyText)) {
    throw new AppError('field_invalid', 'readOnly (or X-MCP-Readonly) takes true or false.', {
      field: 'readOnly',
    });
  }
  const known = [...new Set(registry.map((endpoint) => endpoint.tag))];
  const unknown = tags.find((tag) => !known.some((name) => name.toLowerCase() === tag.toLowerCase()));
  if (unknown !== undefined) {
    throw new AppError('field_invalid_enum', `tag ${unknown} names no operation.`, {
      field: 'tag',
      allowed: known,
    });
  }
  return { tags, readOnly: readOnlyText === 'true', keepUniversal: true };
}
