// The shape of one endpoint declaration. Each endpoint is declared once, in the file named after
// its path (registry/<group>/<path>.ts, e.g. registry/deals/deals.id.advance.ts); the route table,
// validation, the OpenAPI document, the tool list, /me and /capabilities all derive from them.
import type { ErrorCode, RequestContext } from '@fieldops/kit';
import type { z } from 'zod';
import type { Action, Kind } from '../identity/scopes.ts';
import type { BudgetKind, RateBucket } from '../limits.ts';
import type { ServiceClients } from '../clients.ts';
import type { Caller } from '../identity/model.ts';

/** The methods an endpoint is declared with; /capabilities and /me publish the same list. */
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** What the pipeline hands a handler once every check has passed. */
export interface HandlerInput<
  P = Record<string, string>,
  Q = Record<string, unknown>,
  B = Record<string, unknown>,
> {
  params: P;
  query: Q;
  body: B;
  /** The If-Match header as sent ('' when the endpoint is not amending). */
  ifMatch: string;
  ctx: RequestContext;
  clients: ServiceClients;
  /** The authenticated caller; null on public endpoints. */
  caller: Caller | null;
}

export interface HandlerResult {
  /** Defaults to 200. */
  status?: number;
  /** Members added to `{ok: true}`. */
  body: Record<string, unknown>;
  /** Sent as the ETag header (quoted) on reads of amendable records. */
  etag?: string;
  /**
   * A document answered as its own bytes instead of JSON (a report's PDF, CSV or GeoJSON), on an
   * endpoint that declares its type in `produces`; `body` is then not sent.
   */
  file?: AnsweredFile;
}

export interface AnsweredFile {
  /** One of the endpoint's `produces`. */
  contentType: string;
  /** The name a browser saves it under (Content-Disposition). */
  filename: string;
  bytes: Uint8Array;
}

export interface ConfirmationPolicy {
  /** What kind of consequence the operation has, echoed in willDo.effect. */
  effect: 'irreversible' | 'binding';
}

export interface EndpointDef {
  /** Stable id: the OpenAPI operationId, the tool name and the audit operation. */
  operationId: string;
  method: HttpMethod;
  /** Express-style path under /api/v1, e.g. `/leads/:id`. */
  path: string;
  /** OpenAPI tag and the group in docs. */
  tag: string;
  summary: string;
  description?: string;
  /** `none`: public (openapi.json); `token`: any valid token, no scope; `scope`: needs `scope`. */
  auth: 'none' | 'token' | 'scope';
  scope?: { action: Action; kind: Kind };
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** Strict object schema (unknown fields refused). Absent: the endpoint takes no body. */
  body?: z.ZodObject;
  /** A body must name at least one of these fields (PATCH), else invalid_body. */
  bodyRequiresOneOf?: readonly string[];
  /**
   * Body fields naming members of the tenant (an id, or a list of ids): the pipeline checks each
   * exists in the caller's tenant before the write (pipeline/member-references.ts).
   */
  memberFields?: readonly string[];
  /** Response members beyond `ok`, for the OpenAPI document. */
  response: z.ZodType;
  /**
   * The codes only this endpoint's service or handler answers (a missing customer's not_found,
   * principal_unbound, ...). What the declaration itself implies (auth, validation, writes,
   * project scope, the edge) is derived by errorCodesOf (pipeline/pipeline-errors.ts), never listed
   * here; omitted when the endpoint has none of its own.
   */
  errors?: readonly ErrorCode[];
  /** Amending write: If-Match required (428 when missing). */
  amending?: boolean;
  /** Accepts x-service-dry-run: 1 (the service rehearses). */
  dryRun?: boolean;
  /** Takes opId / Idempotency-Key (exactly once). */
  idempotent?: boolean;
  /** Two-phase confirmation before the operation is performed. */
  confirm?: ConfirmationPolicy;
  /** Consequence budgets one call spends. */
  budgets?: readonly { kind: BudgetKind; amount: number }[];
  /** A dry run spends the budgets too: its rehearsal does the costly part (the regions' checks). */
  budgetsOnDryRun?: boolean;
  /** Rate bucket; default reads for GET, writes otherwise. */
  bucket?: RateBucket;
  /** A paged list: `limit` is clamped and the response says so. */
  list?: boolean;
  /** The state machine that guards a field this endpoint moves (published as x-state-machine). */
  machine?: { field: string; moves: Readonly<Record<string, readonly string[]>> };
  /** Name of the path parameter holding a project id (project-scoped tokens get 404 outside scope). */
  projectParam?: string;
  /** Needs a token bound to a member: the service answers 409 principal_unbound, /capabilities says so. */
  memberBound?: boolean;
  /** Answers 202 Accepted (the work is queued, not done) instead of 200. */
  accepted?: boolean;
  /** Answers its body as is, without `ok` (the OpenAPI document, which must be one). */
  bare?: boolean;
  /**
   * The media types of a document the endpoint answers as bytes (HandlerResult.file) on success,
   * instead of a JSON body; errors are JSON as everywhere. The OpenAPI document lists them.
   */
  produces?: readonly string[];
  /**
   * Declared by every read that gathers more than one kind or more than one project (an export,
   * the change feed, the audit trail, client pages, the day view ...): how a narrowed and a
   * project-restricted token are served. The pipeline enforces `require` and `refuse`
   * (pipeline/gather-rule.ts); the handler does the filtering `filter` promises. docs/decisions.md,
   * "Cross-cutting reads"; test/cross-cutting-reads.http.test.ts runs every GET of the registry.
   */
  gathers?: GatherRule;
  /**
   * A write that makes a new project (POST /projects): a project-restricted token gets 403
   * out_of_scope, since the new project would lie outside its list (pipeline/gather-rule.ts).
   */
  refusesRestricted?: boolean;
  handle: (input: HandlerInput) => Promise<HandlerResult>;
}

/** How a cross-cutting read treats narrowing and project restriction (EndpointDef.gathers). */
export interface GatherRule {
  /**
   * Every kind whose records the answer, a link it carries, or what that link downloads can hold
   * (beyond the endpoint's own scope). Empty: it holds no records (discovery describes the contract).
   */
  kinds: readonly Kind[];
  /**
   * `require`: the credential needs read on every one of `kinds`, else 403 naming those it lacks
   * (the answer cannot be cut by kind). `filter`: the answer leaves out the kinds it cannot read.
   */
  byKind: 'require' | 'filter';
  /**
   * `refuse`: a project-restricted token gets 403 out_of_scope (the answer is the whole tenant).
   * `filter`: the handler hands the token's projects to the service, and the answer holds only
   * their records (and nothing tenant-level that is about other projects).
   */
  byProject: 'refuse' | 'filter';
}

export const bucketOf = (endpoint: EndpointDef): RateBucket =>
  endpoint.bucket ?? (endpoint.method === 'GET' ? 'reads' : 'writes');

/** The common errors every authenticated endpoint can return (Conventions 1). */
export const COMMON_ERRORS: readonly ErrorCode[] = [
  'no_credential',
  'invalid_token',
  'revoked',
  'expired',
  'read_only',
  'out_of_scope',
  'role_denied',
  'rate_limited',
];

type Output<S, Otherwise> = S extends z.ZodType ? z.output<S> : Otherwise;

/**
 * An endpoint declaration whose handler sees its path, query and body typed from its own
 * schemas (validated before `handle` runs).
 */
export type EndpointSpec<P, Q, B> = Omit<EndpointDef, 'params' | 'query' | 'body' | 'handle'> & {
  params?: P;
  query?: Q;
  body?: B;
  handle: (
    input: HandlerInput<
      Output<P, Record<string, string>>,
      Output<Q, Record<string, unknown>>,
      Output<B, Record<string, unknown>>
    >,
  ) => Promise<HandlerResult>;
};

/** Declares an endpoint with typed handler input; the registry holds it as a plain EndpointDef. */
export function defineEndpoint<
  P extends z.ZodObject | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  B extends z.ZodObject | undefined = undefined,
>(spec: EndpointSpec<P, Q, B>): EndpointDef {
  // Sound because the pipeline parses params, query and body with these same schemas first.
  return spec as unknown as EndpointDef;
}
