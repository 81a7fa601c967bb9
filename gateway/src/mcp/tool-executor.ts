// A generic executor of the fieldops tool manifest: it knows nothing of the API but what
// GET /api/v1/openapi.json?format=tools (the default dialect) says. Each tool's `x-http` maps
// every input to the path, the query, the JSON body or a header, so the protocol (If-Match,
// Idempotency-Key, dry run, two-phase confirmation, X-Agent-*) travels as ordinary inputs.
// docs/agents.md loads it into an MCP server and into an OpenAI function-calling loop; the
// tests drive the platform through it (test/tool-executor.http.test.ts). The gateway's MCP endpoint
// (mcp.router.ts) calls the API through it too, so a tool call meets the whole HTTP pipeline.
type Schema = Record<string, unknown>;

export interface ManifestTool {
  name: string;
  description: string;
  input_schema: Schema;
  'x-http': { method: string; path: string; location: Record<string, string> };
}

export interface ToolAnswer {
  status: number;
  /** The JSON answer: `{ok: true, ...}` or the error envelope `{ok: false, code, error, ...}`. */
  body: Record<string, unknown>;
  requestId: string | null;
}

export class ToolExecutor {
  readonly tools: readonly ManifestTool[];
  private readonly byName: Map<string, ManifestTool>;

  readonly baseUrl: string;
  private readonly token: string;
  constructor(baseUrl: string, token: string, tools: readonly ManifestTool[]) {
    this.baseUrl = baseUrl;
    this.token = token;
    this.tools = tools;
    this.byName = new Map(tools.map((tool) => [tool.name, tool]));
  }

  /** Fetches the default manifest (narrowed by `filter`, e.g. {tag: 'Leads'}) from the platform. */
  static async load(
    baseUrl: string,
    token: string,
    filter: Record<string, string> = {},
  ): Promise<ToolExecutor> {
    const query = new URLSearchParams({ format: 'tools', ...filter });
    const res = await fetch(`${baseUrl}/api/v1/openapi.json?${query}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    const answer = (await res.json()) as { ok: boolean; tools: ManifestTool[]; error?: string };
    if (!answer.ok) throw new Error(`The tool manifest was refused: ${answer.error ?? res.status}`);
    return new ToolExecutor(baseUrl, token, answer.tools);
  }

  tool(name: string): ManifestTool {
    const tool = this.byName.get(name);
    if (!tool) throw new Error(`No tool named ${name}.`);
    return tool;
  }

  /** Calls a tool with input in the default dialect; `signal` abandons the HTTP call (cancellation). */
  async call(
    name: string,
    input: Record<string, unknown>,
    options: { signal?: AbortSignal; headers?: Record<string, string> } = {},
  ): Promise<ToolAnswer> {
    const { method, path, location } = this.tool(name)['x-http'];
    const unknown = Object.keys(input).filter((key) => input[key] !== undefined && !location[key]);
    if (unknown.length) return unknownInputs(name, unknown, Object.keys(location));
    let url = path;
    const query = new URLSearchParams();
    const body: Record<string, unknown> = {};
    const headers: Record<string, string> = { ...options.headers, authorization: `Bearer ${this.token}` };
    for (const [input_, value] of Object.entries(input)) {
      if (value === undefined) continue;
      const where = location[input_] ?? '';
      if (where === 'path') url = url.replace(`:${input_}`, encodeURIComponent(String(value)));
      else if (where === 'query') {
        for (const item of Array.isArray(value) ? value : [value]) query.append(input_, String(item));
      } else if (where === 'body') body[input_] = value;
      else if (where.startsWith('header:')) headers[where.slice('header:'.length)] = String(value);
      else throw new Error(`${name}: unknown location ${where} of ${input_}.`);
    }
    const takesBody = Object.values(location).includes('body');
    if (takesBody) headers['content-type'] = 'application/json';
    const search = query.size ? `?${query}` : '';
    const res = await fetch(`${this.baseUrl}${url}${search}`, {
      method,
      headers,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(takesBody && method !== 'GET' ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return {
      status: res.status,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
      requestId: res.headers.get('x-request-id'),
    };
  }

  /** Calls a tool with the arguments a model sent for its openai (strict) dialect. */
  async callStrict(name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
    const input = fromStrictArguments(this.tool(name).input_schema, args) as Record<string, unknown>;
    return this.call(name, input);
  }
}

/**
 * An input the tool does not take, refused as the API refuses an unknown body field (the spec's
 * unknown_field, with the inputs there are) rather than thrown: an agent reads it like any refusal.
 */
function unknownInputs(name: string, unknown: string[], known: string[]): ToolAnswer {
  return {
    status: 400,
    body: {
      ok: false,
      code: 'unknown_field',
      error: `${name} takes no input ${unknown.join(', ')}; its inputs are ${known.join(', ') || 'none'}.`,
      retryable: false,
      field: unknown[0],
      fields: unknown,
      allowed: known,
    },
    requestId: null,
  };
}

const isOpenMap = (schema: Schema): boolean =>
  (schema.type === 'object' || schema.additionalProperties !== undefined) &&
  !schema.properties &&
  schema.additionalProperties !== false;

/**
 * Turns the arguments a strict-mode model sends (the openai dialect) into the default dialect's
 * input, reading only the default input schema: a null for an optional input leaves it out, and a
 * list of {key, value} entries for a map becomes the map.
 */
export function fromStrictArguments(schema: Schema, value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    if (isOpenMap(schema)) {
      const values =
        typeof schema.additionalProperties === 'object' ? (schema.additionalProperties as Schema) : {};
      return Object.fromEntries(
        (value as { key: string; value: unknown }[]).map((entry) => [
          entry.key,
          fromStrictArguments(values, entry.value),
        ]),
      );
    }
    const items = (schema.items ?? {}) as Schema;
    return value.map((item) => fromStrictArguments(items, item));
  }
  const properties = schema.properties as Record<string, Schema> | undefined;
  if (!properties) {
    const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
    const objectBranch = branches?.find((branch) => branch.properties);
    return objectBranch ? fromStrictArguments(objectBranch, value) : value;
  }
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([name, member]) => member !== null || required.has(name))
      .map(([name, member]) => [name, fromStrictArguments(properties[name] ?? {}, member)]),
  );
}

/**
 * The input of `tool` that carries `header` (as a 409 confirmation_required names it in
 * confirmHeader), read from the tool's x-http; undefined when the tool has none.
 */
export function inputForHeader(tool: ManifestTool, header: string): string | undefined {
  const wanted = `header:${header}`.toLowerCase();
  return Object.entries(tool['x-http'].location).find(([, where]) => where.toLowerCase() === wanted)?.[0];
}
