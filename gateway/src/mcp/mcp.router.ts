// The remote MCP endpoint (streamable HTTP, MCP 2025-06-18): POST, GET and DELETE /mcp, with the
// platform's bearer tokens, and the protected resource metadata (RFC 9728) a 401 points to.
// A session offers the tools its token may call (openapi/tool-selection.ts), narrowed by what
// the client chose (?tag=, ?readOnly=true or the X-MCP-Tags, X-MCP-Readonly headers). A tool
// call is an HTTP request to this gateway's own API with the caller's token, through the generic
// executor: scopes, budgets, idempotency, confirmation and audit are the HTTP pipeline's, never a
// second copy of it. docs/agents.md, "The remote MCP endpoint"; docs/decisions.md.
// What needs the MCP SDK (mcp-session-start.ts) is loaded on the first sessionless POST: the SDK
// and its protocol schemas are a quarter of a second of the gateway's start from its sources, and
// a gateway that no agent calls never needs them.
import { AppError } from '@fieldops/kit';
import express, { type Request, type Response } from 'express';
import { FORM_BODY_MAX_BYTES } from '../http/edge-responses.ts';
import { sendError } from '../http/error-body.ts';
import { wwwAuthenticate } from '../identity/authenticate.ts';
import type { authorize as authorizeFn } from '../identity/authorize.ts';
import type { Caller } from '../identity/model.ts';
import type { EndpointDef } from '../endpoint/types.ts';
import { ToolCatalogue } from '../openapi/tool-catalogue.ts';
import { termsOf } from '../openapi/tools.ts';
import { McpSessions } from './mcp-sessions.ts';

export const MCP_PATH = '/mcp';
export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

export interface McpDeps {
  registry: readonly EndpointDef[];
  authenticate: (authorization: string | undefined) => Promise<Caller>;
  authorize: typeof authorizeFn;
}

/** The origin the client reached (behind a trusted proxy, the one it names). */
const originOf = (req: Request): string => `${req.protocol}://${req.get('host') ?? 'localhost'}`;

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
      const start = req.method === 'POST' ? await import('./mcp-session-start.ts') : undefined;
      if (!start?.isInitializeRequest(req.body)) {
        return rpcError(res, 400, -32000, 'No session: send initialize first, then Mcp-Session-Id.');
      }
      await start.openSession({ deps, catalogue, sessions, terms }, { req, res, caller });
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
