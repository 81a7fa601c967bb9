// The contract and the token's own view of it (spec: "Introspection and contract").
// Everything here is derived from the registry these endpoints are part of.
import { createHash } from 'node:crypto';
import { AppError } from '@fieldops/kit';
import type { FastState } from '@fieldops/kit/fast';
import { z } from 'zod';
import type { authorize as authorizeFn } from '../identity/authorize.ts';
import type { Caller } from '../identity/model.ts';
import { ACTIONS, KINDS } from '../identity/scopes.ts';
import { BUDGET_KINDS, type BudgetKind, type RateLimits } from '../limits.ts';
import { buildOpenApi } from '../openapi/openapi.ts';
import { TOOL_DIALECTS, type ToolDialect } from '../openapi/tool-dialects.ts';
import { ToolCatalogue } from '../openapi/tool-catalogue.ts';
import { selectToolEndpoints, type ToolChoice } from '../openapi/tool-selection.ts';
import { budgetKey, HOUR_MS, tenantBudgetKey } from '../pipeline/budgets.ts';
import { capability } from '../pipeline/capability.ts';
import { bucketOf, defineEndpoint, HTTP_METHODS, type EndpointDef } from '../endpoint/types.ts';

export interface IntrospectionDeps {
  fast: FastState;
  limits: RateLimits;
  authorize: typeof authorizeFn;
}

/** What is left of each kind: the token's budgets, or the tenant's ceilings across its tokens. */
async function budgetsLeft(
  deps: IntrospectionDeps,
  limits: RateLimits['budgetsPerHour'],
  keyOf: (kind: BudgetKind) => string,
) {
  const entries = await Promise.all(
    BUDGET_KINDS.map(async (kind) => {
      const limit = limits[kind];
      const state = await deps.fast.peekBudget(keyOf(kind), limit, HOUR_MS);
      return [
        kind,
        {
          limit,
          used: state.used,
          remaining: state.remaining,
          resetsInSeconds: Math.ceil(state.resetMs / 1000),
        },
      ];
    }),
  );
  return Object.fromEntries(entries) as Record<string, unknown>;
}

const scopeSchema = z.object({ action: z.enum(ACTIONS), kind: z.enum(KINDS) });
const budgetKind = z.enum(BUDGET_KINDS);

const budgetStates = z.record(
  budgetKind,
  z.object({
    limit: z.number().int(),
    used: z.number().int(),
    remaining: z.number().int(),
    resetsInSeconds: z.number().int(),
  }),
);

/** GET /me: the calling token, its tenant, what it may do, its limits and the budgets left. */
const meSchema = z
  .object({
    token: z.object({
      id: z.string(),
      kind: z.enum(['token', 'session']),
      role: z.string(),
      memberId: z.string().nullable(),
      projectIds: z
        .array(z.string())
        .nullable()
        .describe('The projects a restricted token may reach; null: all.'),
      expiresAt: z.string().nullable(),
      narrowed: z.boolean(),
    }),
    tenant: z.object({ id: z.string(), name: z.string(), currency: z.string() }),
    permissions: z
      .partialRecord(z.enum(KINDS), z.array(z.enum(ACTIONS)))
      .describe('kind → the verbs this token may use (role ∩ narrowing); a kind left out grants nothing.'),
    limits: z.object({
      requestsPerMinute: z.object({ reads: z.number().int(), writes: z.number().int() }),
      budgetsPerHour: z.record(budgetKind, z.number().int()),
      tenantBudgetsPerHour: z
        .record(budgetKind, z.number().int())
        .describe("The operator's ceiling per kind per hour across all of the tenant's tokens."),
    }),
    budgets: budgetStates.describe("This token's budgets."),
    tenantBudgets: budgetStates.describe(
      "The tenant's ceilings, spent by all of its tokens together; a call is refused when either runs out.",
    ),
  })
  .meta({ id: 'Me' });

/** One operation as the calling token sees it (GET /capabilities). */
const capabilitySchema = z
  .object({
    operationId: z.string(),
    method: z.enum(HTTP_METHODS),
    path: z.string(),
    scope: scopeSchema.optional(),
    allowed: z.boolean(),
    refusal: z
      .object({ code: z.string(), reason: z.string() })
      .optional()
      .describe('Why the token may not call it (the code the call would answer).'),
    projects: z.array(z.string()).optional().describe('The projects a restricted token may reach.'),
    confirmation: z.enum(['irreversible', 'binding']).optional(),
    budgets: z.array(z.object({ kind: budgetKind, amount: z.number().int() })).optional(),
    bucket: z.enum(['reads', 'writes']),
  })
  .meta({ id: 'Capability' });

const capabilitiesSchema = z
  .object({ digest: z.string(), endpoints: z.array(capabilitySchema) })
  .meta({ id: 'Capabilities' });

/** The OpenAPI document (or, with format=tools, the tool manifest), described as far as a client reads it. */
const jsonSchemaNode = z
  .looseObject({
    type: z.union([z.string(), z.array(z.string())]).optional(),
    description: z.string().optional(),
  })
  .describe('A JSON Schema.');
const contractSchema = z.union([
  z.looseObject({
    openapi: z.string(),
    info: z.looseObject({ title: z.string(), version: z.string(), 'x-digest': z.string().optional() }),
    paths: z.record(
      z.string(),
      z.record(z.string(), z.looseObject({ operationId: z.string(), summary: z.string().optional() })),
    ),
    components: z.looseObject({ schemas: z.record(z.string(), jsonSchemaNode).optional() }),
  }),
  z.looseObject({
    ok: z.literal(true),
    digest: z.string(),
    tools: z.array(z.looseObject({ name: z.string(), description: z.string() })),
  }),
]);

export function introspectionEndpoints(
  registry: () => readonly EndpointDef[],
  deps: IntrospectionDeps,
): EndpointDef[] {
  let cached: { openapi: Record<string, unknown>; digest: string } | undefined;
  const contract = () => {
    if (!cached) {
      const built = buildOpenApi(registry());
      const digest = createHash('sha256').update(JSON.stringify(built)).digest('hex');
      const openapi = { ...built, info: { ...(built.info as object), 'x-digest': digest } };
      cached = { openapi, digest };
    }
    return cached;
  };
  const toolsOf = (dialect: ToolDialect, caller: Caller | null, choice: ToolChoice): object[] =>
    ToolCatalogue.of(registry()).toolsOf(
      dialect,
      selectToolEndpoints(registry(), caller, deps.authorize, choice),
    );
  return [
    defineEndpoint({
      operationId: 'getOpenApi',
      method: 'GET',
      path: '/openapi.json',
      tag: 'Contract',
      summary: 'The OpenAPI 3.1 contract; with format=tools, the same surface as tools for a language model.',
      auth: 'none',
      query: z.strictObject({
        format: z
          .enum(['tools'])
          .optional()
          .describe('tools: the operations as tools for a language model, {ok, tools, digest}.'),
        dialect: z
          .enum(TOOL_DIALECTS)
          .optional()
          .describe(
            'With format=tools, the shape of each tool. default: {name, description, input_schema, x-http}, where x-http maps every input to the path, query, body or a header. mcp: the Model Context Protocol Tool {name, title, description, inputSchema, outputSchema, annotations}. openai: {type: function, name, description, parameters, strict: true} in structured-output strict mode (optional inputs nullable, a map as {key, value} entries; docs/agents.md).',
          ),
        tag: z
          .string()
          .max(200)
          .optional()
          .describe(
            'With format=tools, only the operations of these tags (comma-separated, e.g. Leads,Deals).',
          ),
        kind: z
          .string()
          .max(200)
          .optional()
          .describe(
            'With format=tools, only the operations whose scope is on these kinds (comma-separated, e.g. lead,deal).',
          ),
        readOnly: z
          .enum(['true', 'false'])
          .optional()
          .describe('With format=tools, true: only the operations that read.'),
      }),
      description:
        'The document itself is the answer (no ok member); its digest is info.x-digest. With format=tools the answer is {ok, tools, digest}: every operation as a tool, in the dialect asked for, narrowed by tag and kind when given (both: an operation must match both). Sent with a token, only the operations that token may perform (role, narrowing, project restriction, as GET /capabilities says); an invalid token is 401.',
      bare: true,
      response: contractSchema,
      handle: async ({ query, caller }) => {
        const { openapi, digest } = contract();
        const tags = listOf(query.tag);
        const kinds = listOf(query.kind);
        if (query.format !== 'tools') {
          const stray = (['dialect', 'tag', 'kind', 'readOnly'] as const).find(
            (name) => query[name] !== undefined,
          );
          if (stray)
            throw new AppError('field_invalid', `${stray} applies only with format=tools.`, { field: stray });
          return { body: openapi };
        }
        checkKnown(registry(), tags, kinds);
        const choice = { tags, kinds, readOnly: query.readOnly === 'true' };
        return { body: { ok: true, tools: toolsOf(query.dialect ?? 'default', caller, choice), digest } };
      },
    }),
    defineEndpoint({
      operationId: 'getMe',
      method: 'GET',
      path: '/me',
      tag: 'Contract',
      summary:
        'What the calling token is and can do: tenant, role, effective permissions, limits and budgets left.',
      auth: 'token',
      response: meSchema,
      handle: async ({ caller }) => {
        const me = caller as Caller;
        return {
          body: {
            token: {
              id: me.tokenId,
              kind: me.kind,
              role: me.role.name,
              memberId: me.member?.id ?? null,
              projectIds: me.projectIds,
              expiresAt: me.expiresAt,
              narrowed: me.narrowing !== null,
            },
            tenant: { id: me.tenant.id, name: me.tenant.name, currency: me.tenant.currency },
            permissions: me.effective,
            limits: {
              requestsPerMinute: deps.limits.perMinute,
              budgetsPerHour: deps.limits.budgetsPerHour,
              tenantBudgetsPerHour: deps.limits.tenantBudgetsPerHour,
            },
            budgets: await budgetsLeft(deps, deps.limits.budgetsPerHour, (kind) =>
              budgetKey(me.tokenId, kind),
            ),
            tenantBudgets: await budgetsLeft(deps, deps.limits.tenantBudgetsPerHour, (kind) =>
              tenantBudgetKey(me.tenant.id, kind),
            ),
          },
        };
      },
    }),
    defineEndpoint({
      operationId: 'getCapabilities',
      method: 'GET',
      path: '/capabilities',
      tag: 'Contract',
      summary: 'Per endpoint: whether the calling token may call it, and why not when it may not.',
      auth: 'token',
      response: capabilitiesSchema,
      handle: async ({ caller }) => ({
        body: {
          digest: contract().digest,
          endpoints: registry().map((endpoint) => ({
            ...capability(endpoint, caller as Caller, deps.authorize),
            bucket: bucketOf(endpoint),
          })),
        },
      }),
    }),
  ];
}

const listOf = (text: string | undefined): string[] =>
  (text ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** An unknown tag or kind is refused with the names there are, rather than answering no tools. */
function checkKnown(registry: readonly EndpointDef[], tags: string[], kinds: string[]): void {
  const known = {
    tag: [...new Set(registry.map((endpoint) => endpoint.tag))],
    kind: [...new Set(registry.flatMap((endpoint) => (endpoint.scope ? [endpoint.scope.kind] : [])))],
  };
  for (const [field, asked] of [
    ['tag', tags],
    ['kind', kinds],
  ] as const) {
    const allowed = known[field];
    const unknown = asked.find((name) => !allowed.some((item) => item.toLowerCase() === name.toLowerCase()));
    if (unknown !== undefined) {
      throw new AppError('field_invalid_enum', `${field} ${unknown} names no operation.`, {
        field,
        allowed,
      });
    }
  }
}
