// The remote MCP endpoint (streamable HTTP, MCP 2025-06-18): POST, GET and DELETE /mcp, with the
// platform's bearer tokens, and the protected resource metadata (RFC 9728) a 401 points to.
// A session offers the tools its token may call (openapi/tool-selection.ts), narrowed by what
// the client chose (?tag=, ?readOnly=true or the X-MCP-Tags, X-MCP-Readonly headers). A tool
// call is an HTTP request to this gateway's own API with the caller's token, through the generic
// executor: scopes, budgets, idempotency, confirmation and audit are the HTTP pipeline's, never a
// second copy of it. docs/agents.md, "The remote MCP endpoint"; docs/decisions.md.
import { randomUUID } from 'node:crypto';
import { AppError } from '@fieldops/kit';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import express, { type Request, type Response } from 'express';
import { FORM_BODY_MAX_BYTES } from '../http/edge-responses.ts';
import { sendError } from '../http/error-body.ts';
import { bearerSecret, wwwAuthenticate } from '../identity/authenticate.ts';
import type { authorize as authorizeFn } from '../identity/authorize.ts';
import type { Caller } from '../identity/model.ts';
import type { EndpointDef } from '../endpoint/types.ts';
import { capability } from '../pipeline/capability.ts';
import { ToolCatalogue } from '../openapi/tool-catalogue.ts';
import { termsOf } from '../openapi/tools.ts';
import { selectToolEndpoints, type ToolChoice } from '../openapi/tool-selection.ts';
import { CONFIRMATION_PROMPT, machineResources } from './mcp-guides.ts';
import { fieldopsMcpServer, type Refusal } from './mcp-server.ts';
import { McpSessions } from './mcp-sessions.ts';
import { ToolExecutor, type ManifestTool } from './tool-executor.ts';

export const MCP_PATH = '/mcp';
export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

export interface McpDeps {
  registry: readonly EndpointDef[];
  authenticate: (authorization: string | undefined) => Promise<Caller>;
  authorize: typeof authorizeFn;
}

/** The origin the client reached (behind a trusted proxy, the one it names). */
const originOf = (req: Request): string => `${req.protocol}://${req.get('host') ?? 'localhost'}`;

/** This gateway's own API, reached over the socket the request came in on (the address it listens on). */
function selfBase(req: Request): string {
  const address = (req.socket.localAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  const host = address.includes(':') ? `[${address}]` : address;
  return `http://${host}:${req.socket.localPort ?? 80}`;
}

export function resourceMetadata(origin: string): Record<string, unknown> {
  return {
    resource: `${origin}${MCP_PATH}`,
    // The platform issues API tokens in the tenant's settings; it runs no OAuth authorization
    // server, so none is named (docs/decisions.md, "The remote MCP endpoint").
    authorization_servers: [],
    bearer_methods_supported: ['header'],
    resource_name: 'fieldops',
    resource_documentation: `${origin}/api/v1/openapi.json`,
  };
}

export function createMcpRouter(deps: McpDeps): { router: express.Router; close: () => void } {
  const router = express.Router();
  const catalogue = ToolCatalogue.of(deps.registry);
  // One term map for the manifest's descriptions and the refusals' sentences (tool-terms.ts).
  const terms = termsOf(deps.registry);
  const sessions = new McpSessions();
  router.get([RESOURCE_METADATA_PATH, `${RESOURCE_METADATA_PATH}${MCP_PATH}`], (req, res) => {
    res.json(resourceMetadata(originOf(req)));
  });
  router.all(MCP_PATH, express.json({ limit: FORM_BODY_MAX_BYTES }), async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const caller = await authenticated(deps, req, res);
    if (!caller) return;
    try {
      if (!['POST', 'GET', 'DELETE'].includes(req.method)) {
        res.setHeader('Allow', 'POST, GET, DELETE');
        return rpcError(res, 405, -32000, `${req.method} /mcp is not served; use POST, GET or DELETE.`);
      }
      const sessionId = req.get('mcp-session-id');
      if (sessionId) {
        const session = sessions.find(sessionId, caller.tokenId);
        if (!session) return rpcError(res, 404, -32001, 'Session not found; initialize a new one.');
        return await session.transport.handleRequest(req, res, req.body);
      }
      if (req.method !== 'POST' || !isInitializeRequest(req.body)) {
        return rpcError(res, 400, -32000, 'No session: send initialize first, then Mcp-Session-Id.');
      }
      await openSession({ deps, catalogue, sessions, terms }, { req, res, caller });
    } catch (err) {
      if (!res.headersSent) sendError(res, err);
    }
  });
  return { router, close: () => sessions.closeAll() };
}

/** The caller, or undefined once a 401 naming the resource metadata has been sent. */
async function authenticated(deps: McpDeps, req: Request, res: Response): Promise<Caller | undefined> {
  try {
    return await deps.authenticate(req.headers.authorization);
  } catch (err) {
    if (err instanceof AppError && err.http === 401) {
      const metadata = `${originOf(req)}${RESOURCE_METADATA_PATH}${MCP_PATH}`;
      res.setHeader('WWW-Authenticate', `${wwwAuthenticate(err)}, resource_metadata="${metadata}"`);
    }
    sendError(res, err);
    return undefined;
  }
}

function rpcError(res: Response, status: number, code: number, message: string): void {
  res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}

interface McpState {
  deps: McpDeps;
  catalogue: ToolCatalogue;
  sessions: McpSessions;
  terms: (text: string) => string;
}

async function openSession(
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
