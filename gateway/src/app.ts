// The gateway's Express app: the only HTTP edge. /api/v1 is built from the endpoint registry;
// /admin/v1 is the operator API; /api/portal takes browser sessions only.
import { legalMovesOf } from './pipeline/legal-moves.ts';
import { randomUUID } from 'node:crypto';
import { AppError, type Logger } from '@fieldops/kit';
import { httpRequestSeconds, metricsText } from '@fieldops/kit/metrics';
import { bindToHop, inHop, startHop } from '@fieldops/kit/tracing';
import type { FastState } from '@fieldops/kit/fast';
import compression from 'compression';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { errorMiddleware } from './http/error-body.ts';
import { edgeGuard } from './http/edge-guard.ts';
import { routeGroups } from './http/route-groups.ts';
import { API_BODY_MAX_BYTES, FORM_BODY_MAX_BYTES } from './http/edge-responses.ts';
import { requireOperator } from './identity/admin-auth.ts';
import { createAdminRouter } from './identity/admin.router.ts';
import { authenticateBearer } from './identity/authenticate.ts';
import { authorize, canAccessProject } from './identity/authorize.ts';
import type { Identity } from './identity/index.ts';
import { createPortalRouter } from './portal/portal.router.ts';
import { createConsoleRouter } from './console/console.router.ts';
import { createMcpRouter } from './mcp/mcp.router.ts';
import { createClientPageRouter } from './client-pages/client-page.router.ts';
import { PORTAL_PROJECTS_ROUTE } from './http/portal-paths.ts';
import { createDeliverablesRouter } from './portal/deliverables.router.ts';
import { createBookingPolicyRouter } from './portal/booking-policy.router.ts';
import type { RateLimits } from './limits.ts';
import type { ServiceClients } from './clients.ts';
import { endpointHandler } from './pipeline/endpoint-handler.ts';
import { createCursorSeal, deriveCursorKey } from './pipeline/cursor-seal.ts';
import type { PipelineDeps } from './pipeline/deps.ts';
import { buildRegistry } from './registry/index.ts';
import type { EndpointDef } from './endpoint/types.ts';
import type { EmbeddedBlobStore } from '@fieldops/kit/blobs';
import { BLOB_ROUTE, createBlobRouter } from './blobs/blob.router.ts';
import type { ChangeFeed } from './sync/change-feed.ts';

export interface GatewayOptions {
  identity: Identity;
  fast: FastState;
  clients: ServiceClients;
  limits: RateLimits;
  /** The operator's bearer for /admin/v1. */
  adminSecret: string;
  /** Key of the list cursors' HMAC (FIELDOPS_CURSOR_KEY); absent, derived from adminSecret. */
  cursorKey?: string;
  logger: Logger;
  /** Readiness of everything behind the gateway, for /healthz. */
  ready: () => Promise<boolean>;
  /** Replace the registry (tests of the pipeline mechanisms); defaults to the product's. */
  registry?: (deps: PipelineDeps) => readonly EndpointDef[];
  /** The embedded blob store, whose presigned URLs the gateway serves under /blobs (absent on S3). */
  blobs?: EmbeddedBlobStore;
  /** The change-feed projection behind GET /changes (gateway/src/sync). */
  changes?: ChangeFeed;
  /**
   * FIELDOPS_TRUSTED_PROXIES: the proxies whose X-Forwarded-For is believed. req.ip, which every
   * per-address limit keys on (portal logins, client pages, anonymous reads such as openapi.json),
   * is then the nearest address in that header that is not one of them; empty keeps the socket's.
   */
  trustedProxies?: readonly string[];
}

const REQUEST_ID = /^[\w.:-]{1,100}$/;

/**
 * Whether body-parser (type-is) will read a body, through socket events: a Content-Length of 0
 * counts. The edge guard's own check (a non-empty body to refuse a charset of) leaves it out.
 */
const hasBody = (req: Request): boolean =>
  req.headers['transfer-encoding'] !== undefined || req.headers['content-length'] !== undefined;

function requestContext(logger: Logger) {
  // The request line's fields are named here and carry no credential, so it is written without
  // the logger's redaction pass (a walk of ~20 paths, ~10 µs, on every request); every other line
  // keeps it.
  const requestLines = logger.child({}, { redact: [] });
  return (req: Request, res: Response, next: NextFunction) => {
    // The request's server span: the root of its trace, or a child of the caller's `traceparent`.
    // What runs on from here, awaits included, runs in it. A body arrives as socket events, which
    // run outside it: only a request that has one is bound to it, since binding an emitter wraps
    // every listener added to it later, on every request. The request line below enters it itself.
    const hop = startHop(req.method, 'server', req.headers);
    if (hasBody(req)) bindToHop(hop, req);
    const sent = req.headers['x-request-id'];
    const requestId = typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : `req_${randomUUID()}`;
    res.locals.requestId = requestId;
    // The request's own logger is made only when something logs besides the request line: a pino
    // child costs tens of microseconds, on every request otherwise.
    let log: Logger | undefined;
    Object.defineProperty(res.locals, 'log', { get: () => (log ??= logger.child({ requestId })) });
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    const requestLine = () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = (req.route as { path?: string } | undefined)?.path ?? 'unmatched';
      httpRequestSeconds.observe({ method: req.method, route, code: String(res.statusCode) }, seconds);
      hop.rename(`${req.method} ${route}`);
      hop.setAttributes({ 'http.route': route, 'http.response.status_code': res.statusCode, requestId });
      hop.end(res.statusCode >= 500 ? `answered ${res.statusCode}` : undefined);
      requestLines.info(
        {
          requestId,
          method: req.method,
          path: req.path,
          route,
          status: res.statusCode,
          ms: Math.round(seconds * 1000),
        },
        'request',
      );
    };
    res.on('finish', () => inHop(hop, requestLine));
    inHop(hop, next);
  };
}

function apiRouter(registry: readonly EndpointDef[], deps: PipelineDeps): express.Router {
  const router = express.Router();
  // Bodies are read raw and parsed by the pipeline after authentication (pipeline/request-body.ts).
  router.use(express.raw({ type: () => true, limit: API_BODY_MAX_BYTES }));
  const notFound = (req: Request) => {
    // The edge guard has named the bucket (http/edge-guard.ts).
    throw new AppError(
      'not_found',
      `There is no endpoint ${req.method} /api/v1${req.path}; see /api/v1/openapi.json.`,
    );
  };
  const addEndpoint = (group: express.Router, endpoint: EndpointDef) => {
    const method = endpoint.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    group[method](endpoint.path, endpointHandler(endpoint, deps, legalMovesOf(registry, endpoint)));
  };
  router.use(routeGroups(registry, addEndpoint, notFound));
  router.use(notFound);
  return router;
}

const OPENAPI_PATH = '/openapi.json';

const CLOSE_MCP_SESSIONS = 'closeMcpSessions';

/** Ends the app's MCP sessions (their open event streams would hold a closing server open). */
export const closeMcpSessions = (app: Express): void => (app.locals[CLOSE_MCP_SESSIONS] as () => void)();

export function createGatewayApp(options: GatewayOptions): Express {
  const deps: PipelineDeps = {
    authenticate: (header) => authenticateBearer(options.identity, header),
    authorize,
    canAccessProject,
    memberExists: async (tenantId, memberId) =>
      (await options.identity.members.get(tenantId, memberId)) !== null,
    fast: options.fast,
    limits: options.limits,
    clients: options.clients,
    logger: options.logger,
    cursors: createCursorSeal(options.cursorKey ?? deriveCursorKey(options.adminSecret)),
    ...(options.changes ? { changes: options.changes } : {}),
  };
  const registry = options.registry ? options.registry(deps) : buildRegistry(deps);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.set('trust proxy', options.trustedProxies?.length ? [...options.trustedProxies] : false);
  app.use(requestContext(options.logger));
  app.use(edgeGuard(registry.map((endpoint) => `/api/v1${endpoint.path}`)));
  app.get('/healthz', async (_req, res) => {
    const ok = await options.ready().catch(() => false);
    res.status(ok ? 200 : 503).json({ ok });
  });
  // On the public port /metrics takes the operator secret (Prometheus scrapes the ops port of the
  // split processes, FIELDOPS_OPS_PORT, which needs none); the Ingress must not route it.
  app.get('/metrics', requireOperator(options.adminSecret, options.fast), async (_req, res) => {
    res.set('cache-control', 'no-store');
    res.type('text/plain; version=0.0.4').send(await metricsText());
  });
  // Operator, portal and API answers may carry secrets (issued tokens, webhook secrets, links) or
  // a tenant's data: no cache keeps them. A route may still set its own.
  app.use(['/admin/v1', '/api'], (_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  app.use(
    '/admin/v1',
    express.json({ limit: FORM_BODY_MAX_BYTES }),
    createAdminRouter(options.identity, { adminSecret: options.adminSecret, fast: options.fast }),
  );
  app.use(
    '/api/portal',
    express.json({ limit: FORM_BODY_MAX_BYTES }),
    createPortalRouter(options.identity, options),
  );
  app.use(
    '/api/portal/booking-policy',
    express.json({ limit: FORM_BODY_MAX_BYTES }),
    createBookingPolicyRouter(options.identity, options.clients),
  );
  app.use(PORTAL_PROJECTS_ROUTE, createDeliverablesRouter(options.identity, options.clients));
  if (options.blobs) app.use(BLOB_ROUTE, createBlobRouter(options.blobs));
  // The contract and the tool manifest are hundreds of KB of repetitive JSON: gzip or br when the
  // client accepts it (an mcp manifest 405 KB → 22 KB in br). Other answers are small, or secrets.
  app.use(`/api/v1${OPENAPI_PATH}`, compression());
  app.use('/api/v1', apiRouter(registry, deps));
  // The remote MCP endpoint; its tool calls come back to /api/v1 (mcp/mcp.router.ts).
  const mcp = createMcpRouter({ registry, authenticate: deps.authenticate, authorize });
  app.use(mcp.router);
  app.locals[CLOSE_MCP_SESSIONS] = mcp.close;
  app.use(
    '/client/v1/page',
    createClientPageRouter({ clients: options.clients, fast: options.fast, limits: options.limits }),
  );
  app.use(createConsoleRouter(options));
  app.use((req: Request) => {
    throw new AppError('not_found', `Nothing is served at ${req.path}; the API lives under /api/v1.`);
  });
  app.use(errorMiddleware);
  return app;
}
