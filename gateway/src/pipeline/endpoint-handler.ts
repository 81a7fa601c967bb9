// The pipeline of ARCHITECTURE §4 for one registry endpoint, in order: authenticate, take from
// the rate bucket, check the scope and the rule of a cross-cutting read (gather-rule.ts), parse and validate, require If-Match, dry run or
// confirmation, spend budgets, serialise keyed duplicates, call the service, answer.
import { AppError, type RequestContext } from '@fieldops/kit';
import type { Request, RequestHandler, Response } from 'express';
import { sendError } from '../http/error-body.ts';
import { sendJson } from '../http/raw-json.ts';
import { sendFile } from './send-file.ts';
import { wwwAuthenticate } from '../identity/authenticate.ts';
import type { Caller } from '../identity/model.ts';
import { bucketOf, type EndpointDef, type HandlerInput, type HandlerResult } from '../endpoint/types.ts';
import type { PipelineDeps } from './deps.ts';
import { spendBudgets } from './budgets.ts';
import { demandConfirmation, redeemConfirmation, type ConfirmBinding } from './confirmation.ts';
import { checkGatherRule } from './gather-rule.ts';
import { withKeyLock } from './idempotency-lock.ts';
import { takeRequest } from './rate-limit.ts';
import { checkMemberReferences } from './member-references.ts';
import { parseRequest, type ParsedRequest } from './request-body.ts';
import { type LegalMove } from './legal-moves.ts';
import { idempotencyKeyOf, readWriteHeaders, type WriteHeaders } from './write-headers.ts';

export function endpointHandler(
  endpoint: EndpointDef,
  deps: PipelineDeps,
  legalMoves?: (names: readonly string[]) => LegalMove[],
): RequestHandler {
  const bucket = bucketOf(endpoint);
  return async (req, res) => {
    res.setHeader('X-RateLimit-Bucket', bucket);
    try {
      // A public endpoint answers a caller who sends a token for that token (the tool manifest).
      const anonymous = endpoint.auth === 'none' && req.headers.authorization === undefined;
      const caller = anonymous ? null : await deps.authenticate(req.headers.authorization);
      res.locals.caller = caller;
      await takeRequest(deps.fast, deps.limits, bucket, caller?.tokenId ?? `ip:${req.ip ?? ''}`, res);
      if (caller && endpoint.scope) checkScope(deps, caller, endpoint);
      checkGatherRule(deps.authorize, caller, endpoint);
      const headers = readWriteHeaders(req);
      const parsed = openCursor(deps, caller, endpoint, parseRequest(endpoint, req));
      checkProjectScope(deps, caller, endpoint, parsed);
      checkWritePreconditions(endpoint, headers);
      await checkMemberReferences(deps, caller, endpoint, parsed.body);
      const result = await perform(endpoint, deps, { req, res, caller, headers, parsed });
      send(res, sealCursor(deps, caller, endpoint, result), parsed, endpoint.bare);
    } catch (err) {
      if (err instanceof AppError && err.http === 401)
        res.setHeader('WWW-Authenticate', wwwAuthenticate(err));
      sendError(res, legalMoves ? withLegalMoves(err, legalMoves) : err);
    }
  };
}

/** A refusal listing legalTriggers or legalTransitions also says how to make each (legalMoves). */
function withLegalMoves(err: unknown, legalMoves: (names: readonly string[]) => LegalMove[]): unknown {
  if (!(err instanceof AppError)) return err;
  const names = err.extras.legalTriggers ?? err.extras.legalTransitions;
  if (!Array.isArray(names)) return err;
  const moves = legalMoves(names.map(String));
  return new AppError(err.code, err.message, { ...err.extras, legalMoves: moves }, { cause: err.cause });
}

function checkScope(deps: PipelineDeps, caller: Caller, endpoint: EndpointDef): void {
  const required = endpoint.scope;
  if (!required) return;
  const decision = deps.authorize(caller, required);
  if (!decision.allowed) throw new AppError(decision.code, decision.reason, { required });
}

/** A project-scoped token gets 404 for a project outside its scope, as for another tenant's. */
function checkProjectScope(
  deps: PipelineDeps,
  caller: Caller | null,
  endpoint: EndpointDef,
  parsed: ParsedRequest,
): void {
  const projectId = endpoint.projectParam ? parsed.params[endpoint.projectParam] : undefined;
  if (caller && projectId !== undefined && !deps.canAccessProject(caller, projectId)) {
    throw new AppError('not_found', `No project with id ${projectId} exists in this tenant.`);
  }
}

function checkWritePreconditions(endpoint: EndpointDef, headers: WriteHeaders): void {
  if (endpoint.amending && headers.ifMatch === undefined) {
    throw new AppError(
      'precondition_required',
      'This amendment needs an If-Match header: the etag from a read of the record, or * to overwrite.',
      { header: 'If-Match' },
    );
  }
  // A read applies nothing, so the dry-run header is honoured trivially there.
  if (headers.dryRun && !endpoint.dryRun && endpoint.method !== 'GET') {
    throw new AppError(
      'field_invalid',
      `${endpoint.method} ${endpoint.path} cannot rehearse; send it without x-service-dry-run.`,
      {
        field: 'x-service-dry-run',
      },
    );
  }
}

interface Exchange {
  req: Request;
  res: Response;
  caller: Caller | null;
  headers: WriteHeaders;
  parsed: ParsedRequest;
}

const bindingOf = (caller: Caller | null, endpoint: EndpointDef) => ({
  tenantId: caller?.tenant.id ?? '',
  operationId: endpoint.operationId,
});

/** The service gets back the cursor it issued, once the gateway's MAC on it holds (cursor-seal.ts). */
function openCursor(
  deps: PipelineDeps,
  caller: Caller | null,
  endpoint: EndpointDef,
  parsed: ParsedRequest,
): ParsedRequest {
  const cursor = parsed.query.cursor;
  if (typeof cursor !== 'string' || cursor === '') return parsed;
  const opened = deps.cursors.open(cursor, bindingOf(caller, endpoint));
  return { ...parsed, query: { ...parsed.query, cursor: opened } };
}

function sealCursor(
  deps: PipelineDeps,
  caller: Caller | null,
  endpoint: EndpointDef,
  result: HandlerResult,
): HandlerResult {
  const next = (result.body as { nextCursor?: unknown } | undefined)?.nextCursor;
  if (typeof next !== 'string' || next === '') return result;
  const body = {
    ...(result.body as object),
    nextCursor: deps.cursors.seal(next, bindingOf(caller, endpoint)),
  };
  return { ...result, body };
}

async function perform(
  endpoint: EndpointDef,
  deps: PipelineDeps,
  exchange: Exchange,
): Promise<HandlerResult> {
  const { caller, headers, parsed } = exchange;
  const isWrite = endpoint.method !== 'GET';
  const key = isWrite ? idempotencyKeyOf(headers.idempotencyKey, parsed.opId) : '';
  const ctx = buildContext(exchange, endpoint, key);
  const { opId: _key, ...request } = parsed;
  const input: HandlerInput = {
    ...request,
    ifMatch: headers.ifMatch ?? '',
    ctx,
    clients: deps.clients,
    caller,
  };
  if (!isWrite) return endpoint.handle(input);
  if (ctx.dryRun) {
    // A rehearsal that itself costs work (regions: the geometry) is bounded like the write.
    if (endpoint.budgetsOnDryRun) await spend(endpoint, deps, exchange);
    return endpoint.handle(input);
  }
  if (!key) return performCharged(endpoint, deps, exchange, input);
  // Under the key's lock, so a duplicate racing the first call sees it completed.
  return withKeyLock(deps.fast, ctx.tenant?.id ?? '', key, async () => {
    const rehearsal = await rehearseIfCharged(endpoint, exchange, input);
    // A completed write answered again costs nothing: no new confirmation, no budget spent.
    if (rehearsal?.body.replayed === true) return endpoint.handle(input);
    return performCharged(endpoint, deps, exchange, input, rehearsal);
  });
}

/** Confirms and spends the budgets an operation costs, then performs it. */
async function performCharged(
  endpoint: EndpointDef,
  deps: PipelineDeps,
  exchange: Exchange,
  input: HandlerInput,
  rehearsal?: HandlerResult,
): Promise<HandlerResult> {
  const { caller } = exchange;
  if (endpoint.confirm && caller) await confirm(endpoint, deps, exchange, input, rehearsal);
  await spend(endpoint, deps, exchange);
  return endpoint.handle(input);
}

/** Spends the budgets an operation costs, per token and against the tenant's ceilings. */
async function spend(endpoint: EndpointDef, deps: PipelineDeps, exchange: Exchange): Promise<void> {
  const { caller } = exchange;
  if (endpoint.budgets?.length && caller) {
    await spendBudgets(
      deps.fast,
      deps.limits,
      { tokenId: caller.tokenId, tenantId: caller.tenant.id },
      endpoint.budgets,
      exchange.res,
    );
  }
}

/**
 * The service's dry run of a keyed write that costs a confirmation or a budget: it answers
 * replayed when the key's write is already completed (its idempotency record is the truth, not
 * a copy in the gateway). Undefined when the write costs nothing or cannot rehearse.
 */
async function rehearseIfCharged(
  endpoint: EndpointDef,
  exchange: Exchange,
  input: HandlerInput,
): Promise<HandlerResult | undefined> {
  const charged = Boolean(endpoint.confirm) || Boolean(endpoint.budgets?.length);
  if (!charged || !endpoint.dryRun || !exchange.caller) return undefined;
  return rehearse(endpoint, input);
}

const rehearse = (endpoint: EndpointDef, input: HandlerInput): Promise<HandlerResult> =>
  endpoint.handle({ ...input, ctx: { ...input.ctx, dryRun: true } });

async function confirm(
  endpoint: EndpointDef,
  deps: PipelineDeps,
  exchange: Exchange,
  input: HandlerInput,
  rehearsed?: HandlerResult,
) {
  const caller = exchange.caller as Caller;
  const binding: ConfirmBinding = {
    tenantId: caller.tenant.id,
    credentialId: caller.tokenId,
    operationId: endpoint.operationId,
    payload: [input.params, input.query, input.body],
  };
  const token = exchange.headers.confirmToken;
  if (token && (await redeemConfirmation(deps.fast, token, binding))) return;
  const rehearsal = rehearsed ?? (await rehearse(endpoint, input));
  const willDo = {
    summary: rehearsal.body.willDo,
    effect: endpoint.confirm?.effect,
    effects: rehearsal.body.effects,
    ...((rehearsal.body.details as Record<string, unknown> | undefined) ?? {}),
  };
  throw await demandConfirmation(deps.fast, binding, willDo, token ? 'mismatch' : 'first');
}

function buildContext(exchange: Exchange, endpoint: EndpointDef, idempotencyKey: string): RequestContext {
  const { caller, headers, res } = exchange;
  return {
    requestId: String(res.locals.requestId ?? ''),
    tenant: caller
      ? {
          id: caller.tenant.id,
          currency: caller.tenant.currency,
          defaultVertical: caller.tenant.defaultVertical,
        }
      : undefined,
    principal: caller
      ? {
          kind: caller.kind,
          tokenId: caller.tokenId,
          role: caller.role.name,
          memberId: caller.member?.id ?? '',
        }
      : undefined,
    idempotencyKey,
    agent: headers.agent,
    dryRun: headers.dryRun,
    operation: endpoint.operationId,
  };
}

function send(res: Response, result: HandlerResult, parsed: ParsedRequest, bare = false): void {
  if (result.etag) res.setHeader('ETag', `"${result.etag}"`);
  if (result.file) return sendFile(res, result.file);
  if (bare) return sendJson(res, result.status ?? 200, result.body);
  const page = parsed.page
    ? {
        limit: parsed.page.limit,
        ...(parsed.page.clamped ? { limitClamped: true, requestedLimit: parsed.page.requested } : {}),
      }
    : {};
  sendJson(res, result.status ?? 200, { ok: true, ...result.body, ...page });
}
