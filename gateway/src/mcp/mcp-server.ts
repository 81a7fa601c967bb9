// The fieldops MCP server, whatever carries it: the gateway's remote endpoint (mcp.router.ts,
// streamable HTTP) and the stdio script (scripts/agents/mcp-server.ts) both build it here from a
// list of tools in the MCP dialect and a function that performs one call through the API.
// Long calls report progress when the client asks for it (a progressToken), and a cancelled
// call abandons its HTTP request.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  ErrorCode,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpPrompt, McpResource } from './mcp-guides.ts';
import type { ToolAnswer } from './tool-executor.ts';

export type ToolCall = (
  name: string,
  args: Record<string, unknown>,
  options: { signal: AbortSignal },
) => Promise<ToolAnswer>;

/** Why a token is not offered a tool; a denial names the scope it needs, as the API's 403 does. */
export interface Refusal {
  code: string;
  reason: string;
  required?: { action: string; kind: string };
}

export interface FieldopsServerOptions {
  /** The tools offered (the caller's own, in the MCP dialect). */
  tools: readonly object[];
  call: ToolCall;
  /** Why a tool this server does not offer is refused (the token's refusal); default: no such tool. */
  refusal?: (name: string) => Refusal | undefined;
  /** Resources (the state machines) and prompts (the confirmation protocol): mcp-guides.ts. */
  resources?: readonly McpResource[];
  prompts?: readonly McpPrompt[];
  /**
   * Rewrites a refusal's sentence in tool words (openapi/tool-terms.ts: a protocol header becomes
   * the input that carries it, a path the tool): the API's sentences are written for HTTP.
   */
  terms?: (text: string) => string;
}

/** How often a long call tells a client that asked for progress that it is still running. */
const PROGRESS_EVERY_MS = 2_000;

export const SERVER_INSTRUCTIONS = [
  'fieldops: the API of a drone and site-capture business, one tool per operation.',
  'The tools listed are exactly those this token may call; getCapabilities says why others are refused.',
  'A write takes opId (or idempotencyKey): the same key on a retry performs it once, and a repeat costs nothing.',
  'A tool that answers confirmation_required: show willDo to a person, then repeat the identical call with confirmToken.',
  'A failed call answers {ok: false, code, retryable, ...} as structuredContent. retryable: true means the same call may succeed later;',
  'a conflict that lists legalMoves (with legalTriggers or legalTransitions), current or convertedTo will fail again unchanged:',
  'read those fields and make the move they name, amend the current record, or use the record convertedTo names.',
].join(' ');

export function fieldopsMcpServer(options: FieldopsServerOptions): Server {
  const resources = options.resources ?? [];
  const prompts = options.prompts ?? [];
  const server = new Server(
    { name: 'fieldops', version: '1.0.0' },
    {
      capabilities: {
        tools: {},
        ...(resources.length ? { resources: {} } : {}),
        ...(prompts.length ? { prompts: {} } : {}),
      },
      instructions: SERVER_INSTRUCTIONS,
    },
  );
  if (resources.length) serveResources(server, resources);
  if (prompts.length) servePrompts(server, prompts);
  const tools = options.tools as Tool[];
  const known = new Set(tools.map((tool) => tool.name));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name } = request.params;
    if (!known.has(name)) return notOffered(name, options.refusal?.(name));
    const progressToken = request.params._meta?.progressToken;
    const report = (progress: number, message: string) =>
      progressToken === undefined
        ? Promise.resolve()
        : extra
            .sendNotification({
              method: 'notifications/progress',
              params: { progressToken, progress, message },
            })
            .catch(() => undefined);
    await report(0, `${name} started`);
    let beats = 0;
    const heartbeat =
      progressToken === undefined
        ? undefined
        : setInterval(() => void report(++beats, `${name} still running`), PROGRESS_EVERY_MS);
    try {
      const answer = await options.call(name, request.params.arguments ?? {}, { signal: extra.signal });
      await report(beats + 1, `${name} answered ${answer.status}`);
      return resultOf(answer, options.terms);
    } finally {
      if (heartbeat) clearInterval(heartbeat);
    }
  });
  return server;
}

/**
 * A tool's answer as an MCP result: the JSON as text and as structuredContent, a refusal too (its
 * envelope is a branch of every output schema), so an agent reads confirmToken, legalMoves or
 * current without parsing text.
 */
export function resultOf(answer: ToolAnswer, terms?: (text: string) => string): CallToolResult {
  const failed = answer.body.ok !== true;
  const body =
    failed && terms && typeof answer.body.error === 'string'
      ? { ...answer.body, error: terms(answer.body.error) }
      : answer.body;
  return {
    content: [{ type: 'text', text: JSON.stringify(body) }],
    structuredContent: body,
    isError: failed,
  };
}

/** A tool this token is not offered: refused as the API would refuse the call, without making it. */
function notOffered(name: string, refusal: Refusal | undefined): CallToolResult {
  const body = refusal
    ? {
        ok: false,
        code: refusal.code,
        retryable: false,
        error: refusal.reason,
        ...(refusal.required ? { required: refusal.required } : {}),
      }
    : {
        ok: false,
        code: 'not_found',
        retryable: false,
        error: `No tool named ${name}; tools/list names the tools this token may call.`,
      };
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body, isError: true };
}

function serveResources(server: Server, resources: readonly McpResource[]): void {
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: resources.map(({ text: _text, ...listed }) => listed),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    const found = resources.find((resource) => resource.uri === request.params.uri);
    if (!found) throw new McpError(ErrorCode.InvalidParams, `No resource ${request.params.uri}.`);
    return { contents: [{ uri: found.uri, mimeType: found.mimeType, text: found.text }] };
  });
}

function servePrompts(server: Server, prompts: readonly McpPrompt[]): void {
  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: prompts.map(({ name, description }) => ({ name, description })),
  }));
  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    const found = prompts.find((prompt) => prompt.name === request.params.name);
    if (!found) throw new McpError(ErrorCode.InvalidParams, `No prompt ${request.params.name}.`);
    return {
      description: found.description,
      messages: [{ role: 'user' as const, content: { type: 'text' as const, text: found.text } }],
    };
  });
}
