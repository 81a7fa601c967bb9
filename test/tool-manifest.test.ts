// The tool manifest (GET /api/v1/openapi.json?format=tools) in each dialect, built from the
// registry and held against the real validators: the MCP SDK's ToolSchema (and the Ajv validator
// its client compiles input and output schemas with), and OpenAI's strict-mode rules
// (support/openai-strict.ts). No platform: the manifest is a function of the declarations.
import { describe, expect, it } from '@jest/globals';
import { ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { FastState } from '@fieldops/kit/fast';
import {
  authorize,
  SPEC_RATE_LIMITS,
  toolsIn,
  type McpTool,
  type OpenAiTool,
  buildTools,
  type Tool,
  buildRegistry,
} from '@fieldops/gateway';
import { fromStrictArguments } from '../scripts/agents/tool-executor.ts';
import { strictViolations } from './support/openai-strict.ts';

const registry = buildRegistry({ fast: {} as FastState, limits: SPEC_RATE_LIMITS, authorize });
const tools = buildTools(registry);
const mcp = toolsIn(registry, 'mcp') as McpTool[];
const openai = toolsIn(registry, 'openai') as OpenAiTool[];
const byName = <T extends { name: string }>(list: T[], name: string): T => {
  const found = list.find((tool) => tool.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
};

describe('the default manifest carries the protocol', () => {
  it('maps an input to every header each operation honours, read from its declaration', () => {
    for (const endpoint of registry) {
      const { location } = byName(tools, endpoint.operationId)['x-http'];
      const headers = Object.values(location).filter((where) => where.startsWith('header:'));
      const write = endpoint.method !== 'GET';
      const expected = [
        ...(endpoint.amending ? ['header:If-Match'] : []),
        ...(endpoint.confirm ? ['header:x-service-confirm'] : []),
        ...(endpoint.dryRun ? ['header:x-service-dry-run'] : []),
        ...(write
          ? [
              'header:X-Agent-Confirmed-By',
              'header:X-Agent-Run-Id',
              'header:X-Agent-Task',
              'header:X-Agent-Model',
            ]
          : []),
      ];
      expect({
        name: endpoint.operationId,
        headers: headers.filter((h) => h !== 'header:Idempotency-Key'),
      }).toEqual({
        name: endpoint.operationId,
        headers: expect.arrayContaining(expected),
      });
      expect(headers.length - (location.idempotencyKey === 'header:Idempotency-Key' ? 1 : 0)).toBe(
        expected.length,
      );
    }
  });

  it('describes every input and maps every input somewhere', () => {
    for (const tool of tools) {
      const inputs = Object.keys(tool.input_schema.properties);
      expect(Object.keys(tool['x-http'].location).sort()).toEqual(inputs.sort());
      for (const name of Object.keys(tool['x-http'].location).filter((n) =>
        tool['x-http'].location[n]?.startsWith('header:'),
      )) {
        expect(tool.input_schema.properties[name]?.description).toEqual(expect.any(String));
      }
    }
    const send = byName(tools, 'sendProposal');
    expect(send['x-http'].location).toMatchObject({ confirmToken: 'header:x-service-confirm' });
    expect(send.input_schema.properties.confirmToken?.description).toContain('confirmation_required');
    expect(byName(tools, 'listLeads').input_schema.properties.limit).toMatchObject({
      minimum: 1,
      maximum: 100,
    });
  });
});

describe('dialect mcp', () => {
  const validator = new AjvJsonSchemaValidator();
  it.each(mcp.map((tool) => [tool.name, tool] as const))(
    '%s parses with the SDK ToolSchema',
    (_name, tool) => {
      expect(ToolSchema.parse(tool)).toEqual(tool);
      expect(() => validator.getValidator(tool.inputSchema as never)).not.toThrow();
      expect(() => validator.getValidator(tool.outputSchema as never)).not.toThrow();
    },
  );

  it('sets the hints from the registry', () => {
    expect(byName(mcp, 'getLead').annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName(mcp, 'sendProposal').annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: true,
    });
    expect(byName(mcp, 'sealDesign').annotations).toMatchObject({ destructiveHint: true });
    expect(byName(mcp, 'createLead').annotations).toMatchObject({
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    for (const endpoint of registry) {
      expect(byName(mcp, endpoint.operationId).annotations.destructiveHint).toBe(
        Boolean(endpoint.confirm) || endpoint.method === 'DELETE',
      );
    }
  });
});

describe('dialect openai', () => {
  it.each(openai.map((tool) => [tool.name, tool] as const))(
    '%s passes the strict-mode rules',
    (_name, tool) => {
      expect(strictViolations(tool)).toEqual([]);
    },
  );

  it('closes the open maps and types the untyped fields, stating the bounds it cannot carry', () => {
    const permit = byName(openai, 'setProjectPermit').parameters.properties as Record<
      string,
      Record<string, unknown>
    >;
    expect(permit.operatorId).toMatchObject({ type: ['string', 'null'] });
    const settings = byName(openai, 'setPlanningSettings').parameters.properties as Record<
      string,
      Record<string, unknown>
    >;
    expect(settings.permitDefaults?.anyOf).toEqual(
      expect.arrayContaining([expect.objectContaining({ additionalProperties: false })]),
    );
    const lead = byName(openai, 'createLead').parameters.properties as Record<
      string,
      Record<string, unknown>
    >;
    expect(JSON.stringify(lead.name)).toMatch(/at most \d+ characters/);
    const list = byName(openai, 'listLeads').parameters.properties as Record<string, Record<string, unknown>>;
    expect(JSON.stringify(list.limit)).toContain('"maximum":100');
  });

  it('turns strict arguments back into the default input: nulls left out, entries into a map', () => {
    const schema = byName(tools, 'saveReport').input_schema;
    const args = {
      name: 'Leads this week',
      description: null,
      figures: [
        {
          label: 'New',
          resource: 'leads',
          measure: 'count',
          field: null,
          filter: [{ key: 'status', value: 'New' }],
        },
      ],
      opId: null,
    };
    expect(fromStrictArguments(schema, args)).toEqual({
      name: 'Leads this week',
      figures: [{ label: 'New', resource: 'leads', measure: 'count', filter: { status: 'New' } }],
    });
  });
});

it('states each dialect size (docs/agents.md)', () => {
  const size = (list: unknown[]) => JSON.stringify(list).length;
  const sizes = { default: size(tools as Tool[]), mcp: size(mcp), openai: size(openai) };
  // Printed for the docs; bounded so a regression in size is noticed. The mcp dialect spells out
  // each output schema inline (without field descriptions, issue 36), about 405 KB.
  for (const bytes of Object.values(sizes)) expect(bytes).toBeLessThan(500_000);
});

describe('tool words (issue 36)', () => {
  // A tool is called by name with named inputs: its text names those, never the HTTP headers or
  // API paths the OpenAPI document names (tool-terms.ts rewrites them from the registry's text).
  const HTTP_WORDS =
    /\b(x-service-[a-z-]+|x-agent-[a-z-]+|if-match|idempotency-key)\b|\b(GET|POST|PUT|PATCH|DELETE) \/(?!api\/portal)/i;
  const sentences = (schema: unknown): string[] =>
    schema === null || typeof schema !== 'object'
      ? []
      : Object.entries(schema).flatMap(([key, value]) =>
          key === 'description' && typeof value === 'string' ? [value] : sentences(value),
        );
  it.each(mcp.map((tool) => [tool.name, [tool.description, ...sentences(tool.inputSchema)].join(' ')]))(
    '%s names no header or API path, in its description or its inputs',
    (_name, text) => {
      expect(text).not.toMatch(HTTP_WORDS);
    },
  );

  it('holds every description to 1,024 characters (the OpenAI bound on function descriptions)', () => {
    const long = openai.filter((tool) => tool.description.length > 1024).map((tool) => tool.name);
    expect(long).toEqual([]);
  });
});
