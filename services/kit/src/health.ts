// Liveness, readiness and metrics for a service running as its own process (Kubernetes probes).
// A bare node:http server: the probes must keep answering even when the service's own stack is wedged.
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from './log.ts';
import { metricsContentType, metricsText } from './metrics.ts';

export type HealthCheck = () => Promise<boolean> | boolean;

export interface HealthReport {
  ok: boolean;
  checks: Record<string, boolean>;
}

export interface CheckOptions {
  /**
   * Whether a failing check takes the process out of service (503 on /readyz). False for a check
   * that only reports (the event log reconnecting to its broker: the API still answers, writes wait
   * in the outbox), which shows in the body's `checks` while `ok` stays true.
   */
  required?: boolean;
}

// A probe that hangs would hang the readiness answer; past this a check counts as failing.
const CHECK_TIMEOUT_MS = 2000;
// A report is reused this long, and probes arriving while one runs share it: however often the
// kubelet, the supervisor and peers' health checks ask, the checks run at most once a second each.
const REPORT_TTL_MS = 1000;

async function runCheck(check: HealthCheck): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
  });
  try {
    return (await Promise.race([Promise.resolve().then(check), timeout])) === true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export class HealthRegistry {
  readonly #checks = new Map<string, HealthCheck>();
  readonly #reportOnly = new Set<HealthCheck>();

  /** Registering a name again replaces its check (a service restarted in-process). Returns an unregister. */
  register(name: string, check: HealthCheck, options: CheckOptions = {}): () => void {
    this.#checks.set(name, check);
    if (options.required === false) this.#reportOnly.add(check);
    // A change of the checks makes the next probe run them (a drain must show at once).
    this.#cached = undefined;
    return () => {
      if (this.#checks.get(name) === check) this.#checks.delete(name);
      this.#reportOnly.delete(check);
      this.#cached = undefined;
    };
  }

  #cached: { at: number; report: Promise<HealthReport> } | undefined;

  /** The next report runs the checks again: a check's own state changed (a drain began). */
  invalidate(): void {
    this.#cached = undefined;
  }

  /**
   * Every check's result, each bounded by CHECK_TIMEOUT_MS; a report younger than REPORT_TTL_MS
   * (or still running) is shared, so probes never pile up work on a slow dependency.
   */
  report(): Promise<HealthReport> {
    const now = Date.now();
    if (this.#cached && now - this.#cached.at < REPORT_TTL_MS) return this.#cached.report;
    const report = this.#runChecks();
    this.#cached = { at: now, report };
    // A report that took longer than the TTL is fresh when it lands: stamp it then.
    void report.then(() => {
      if (this.#cached?.report === report) this.#cached = { at: Date.now(), report };
    });
    return report;
  }

  /** Runs every check concurrently; a check that throws or times out counts as not ready. */
  async #runChecks(): Promise<HealthReport> {
    const entries = [...this.#checks.entries()];
    const results = await Promise.all(entries.map(([, check]) => runCheck(check)));
    const checks: Record<string, boolean> = {};
    let ok = true;
    entries.forEach(([name, check], index) => {
      checks[name] = results[index] === true;
      if (!checks[name] && !this.#reportOnly.has(check)) ok = false;
    });
    return { ok, checks };
  }
}

/** The process's readiness registry. */
export const health = new HealthRegistry();

export interface OpsServerOptions {
  host: string;
  /** 0 picks an ephemeral port. */
  port: number;
  logger: Logger;
  registry?: HealthRegistry;
  /** Bearer GET /metrics requires (FIELDOPS_METRICS_TOKEN); probes stay open for the kubelet. */
  metricsToken?: string;
}

export interface OpsServer {
  port: number;
  stop(): Promise<void>;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

/** Constant-time: the digests are compared, so neither length nor content leaks through timing. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/i.exec(header ?? '')?.[1] ?? '';
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(token));
}

async function route(
  req: IncomingMessage,
  res: ServerResponse,
  registry: HealthRegistry,
  metricsToken: string | undefined,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    return sendJson(res, 405, { ok: false, error: 'Only GET is supported here.' });
  }
  const pathname = new URL(req.url ?? '/', 'http://ops').pathname;
  switch (pathname) {
    case '/healthz':
      return sendJson(res, 200, { ok: true });
    case '/readyz': {
      const report = await registry.report();
      return sendJson(res, report.ok ? 200 : 503, report);
    }
    case '/metrics': {
      if (metricsToken !== undefined && !bearerMatches(req.headers.authorization, metricsToken)) {
        res.setHeader('www-authenticate', 'Bearer realm="metrics"');
        return sendJson(res, 401, {
          ok: false,
          error:
            'GET /metrics needs Authorization: Bearer <FIELDOPS_METRICS_TOKEN>; scrape with the token from the Secret.',
        });
      }
      const text = await metricsText();
      res.writeHead(200, { 'content-type': metricsContentType });
      res.end(text);
      return;
    }
    default:
      return sendJson(res, 404, { ok: false, error: 'Not found. Try /healthz, /readyz or /metrics.' });
  }
}

/** Starts GET /healthz (liveness), /readyz (503 until every check passes) and /metrics. */
export function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  const registry = options.registry ?? health;
  const log = options.logger;
  const server = createServer((req, res) => {
    route(req, res, registry, options.metricsToken).catch((err: unknown) => {
      log.error({ err, url: req.url }, 'ops endpoint failed');
      if (!res.headersSent) sendJson(res, 500, { ok: false, error: 'Internal error.' });
      else res.destroy();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      log.info({ host: options.host, port }, 'ops server listening');
      resolve({ port, stop: () => closeServer(server) });
    });
  });
}

function closeServer(server: ReturnType<typeof createServer>): Promise<void> {
  return new Promise((resolve) => {
    // Probes use keep-alive; without dropping idle sockets close() would wait for them to time out.
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
