// One connection of the Node runner = one k6 virtual user: an autocannon instance with a single
// connection whose every request is pulled from the scenario's flow, and whose every reply is fed
// back to it before the next request is built. autocannon calls setupRequest for the next request
// right after onResponse for the previous one (one connection, no pipelining), so the flow sees
// each reply before it decides what to send. When a flow ends, the next iteration starts.
//
// One instance per connection, because autocannon resets its per-connection context each time its
// request list wraps; the flow's state lives here instead.
import autocannon from 'autocannon';
import { isAbsolute, type Flow, type Reply, type RequestSpec } from '../scenarios/http.ts';
import type { Scenario } from '../scenarios/scenario.ts';
import { headersFor, lowercased, parseBody, type Target } from './fetch-flow.ts';
import type { ScenarioStats } from './measure.ts';

/** A flow that yields nothing this many times in a row is a bug in the scenario, not load. */
const MAX_EMPTY_ITERATIONS = 100;

/**
 * The iterations a scenario may still start, shared by its connections: unbounded for a timed run,
 * counted down for `--iterations` (k6's shared-iterations executor). An iteration abandoned for
 * want of an answer gives its claim back, so a run of N iterations completes N of them.
 */
export class IterationBudget {
  private left: number;
  constructor(total = Number.POSITIVE_INFINITY) {
    this.left = total;
  }

  claim(): boolean {
    if (this.left <= 0) return false;
    this.left--;
    return true;
  }

  giveBack(): void {
    this.left++;
  }
}

/**
 * The two fields of autocannon's client that end it after its current answer: it destroys itself,
 * instead of building another request, once `reqsMade` reaches `responseMax` (the per-client form
 * of its maxConnectionRequests option, read before each request).
 */
interface EndableClient {
  reqsMade: number;
  responseMax?: number;
}

export class Connection {
  private flow: Flow | undefined;
  /** The request built from the last answer, sent at autocannon's next setupRequest. */
  private upcoming: RequestSpec | undefined;
  private pending: RequestSpec | undefined;
  private client: EndableClient | undefined;
  private iteration = 0;
  private lastStep = '';
  private readonly origin: string;

  private readonly scenario: Scenario;
  private readonly data: unknown;
  private readonly vu: number;
  private readonly run: string;
  private readonly target: Target;
  private readonly stats: ScenarioStats;
  private readonly budget: IterationBudget;
  constructor(
    scenario: Scenario,
    data: unknown,
    vu: { vu: number; run: string },
    target: Target,
    stats: ScenarioStats,
    budget: IterationBudget,
  ) {
    this.scenario = scenario;
    this.data = data;
    this.vu = vu.vu;
    this.run = vu.run;
    this.target = target;
    this.stats = stats;
    this.budget = budget;
    this.origin = new URL(target.url).origin;
  }

  /** autocannon's client of this connection (its setupClient hook), to end it when the budget is spent. */
  attach(client: EndableClient): void {
    this.client = client;
  }

  /** A new flow's first step, or undefined when the budget has no iteration left to start. */
  private startIteration(): IteratorResult<RequestSpec, void> | undefined {
    if (!this.budget.claim()) return undefined;
    const tools = { check: (name: string, ok: boolean) => this.stats.check(name, ok) };
    const vu = { vu: this.vu, iteration: this.iteration++, run: this.run };
    this.flow = this.scenario.iteration(this.data, vu, tools);
    return this.flow.next();
  }

  /**
   * The flow's next request after `reply` (or a new iteration's first), or undefined when no
   * iteration is left. A flow that throws counts as a failed check and starts over.
   */
  private advance(reply: Reply | undefined): RequestSpec | undefined {
    let answer = reply;
    for (let empty = 0; empty < MAX_EMPTY_ITERATIONS;) {
      const given = answer;
      answer = undefined;
      let step: IteratorResult<RequestSpec, void> | undefined;
      try {
        if (!this.flow) step = this.startIteration();
        else step = given ? this.flow.next(given) : this.flow.next();
      } catch (err) {
        this.stats.check(`flow error: ${err instanceof Error ? err.message : String(err)}`, false);
        this.flow = undefined;
        empty++;
        continue;
      }
      if (!step) return undefined;
      if (step.done) {
        this.stats.iterations++;
        this.flow = undefined;
        empty++;
        continue;
      }
      if (isAbsolute(step.value.path) && new URL(step.value.path).origin !== this.origin) {
        // autocannon keeps one connection to one origin; k6 follows such URLs, this runner cannot.
        this.stats.check('URL on the platform origin (Node runner limit)', false);
        this.flow = undefined;
        empty++;
        continue;
      }
      return step.value;
    }
    throw new Error(`${this.scenario.name}: ${MAX_EMPTY_ITERATIONS} iterations in a row sent nothing`);
  }

  /** The request autocannon sends next (its setupRequest hook). */
  nextRequest(): RequestSpec {
    if (this.pending) {
      // No answer came (a timeout or a dropped connection, counted by autocannon): start over.
      this.pending = undefined;
      this.flow = undefined;
      this.upcoming = undefined;
      this.budget.giveBack();
    }
    const spec = this.upcoming ?? this.advance(undefined);
    // The client is ended before it asks once the budget is spent (answered), and a run starts
    // no more connections than iterations, so there is always a request to give here.
    if (!spec) throw new Error(`${this.scenario.name}: asked for a request with no iteration left`);
    this.upcoming = undefined;
    this.pending = spec;
    return spec;
  }

  /** As autocannon builds it: API paths carry the token, presigned URLs go as given. */
  toRequest(spec: RequestSpec): autocannon.Request {
    const url = isAbsolute(spec.path) ? new URL(spec.path) : undefined;
    const path = url ? `${url.pathname}${url.search}` : spec.path;
    return { method: spec.method, path, headers: headersFor(this.target, spec), body: spec.body ?? '' };
  }

  answered(status: number, body: string, headers: Record<string, string | string[] | undefined>): void {
    const spec = this.pending;
    if (!spec) return;
    this.pending = undefined;
    this.lastStep = spec.step;
    this.stats.answered(spec.step, status, spec.expect.includes(status));
    // The next request is worked out now, before autocannon asks for it, so that a connection
    // whose budget is spent ends here instead of sending one more.
    this.upcoming = this.advance({ status, headers: lowercased(headers), body: parseBody(body) });
    if (!this.upcoming && this.client) this.client.responseMax = this.client.reqsMade;
  }

  /** autocannon's timing of the answer just recorded. */
  timed(milliseconds: number): void {
    this.stats.timed(this.lastStep, milliseconds);
  }
}

/**
 * Drives one connection for `seconds`, or until its budget is spent; resolves with autocannon's
 * result.
 */
export function driveConnection(
  connection: Connection,
  url: string,
  seconds: number,
): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections: 1,
        duration: seconds,
        timeout: 10,
        setupClient: (client) => connection.attach(client as unknown as EndableClient),
        requests: [
          {
            setupRequest: (request) => ({ ...request, ...connection.toRequest(connection.nextRequest()) }),
            onResponse: (status, body, _context, headers) =>
              connection.answered(status, body, (headers ?? {}) as Record<string, string | string[]>),
          },
        ],
      },
      (err: unknown, result: autocannon.Result) =>
        err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(result),
    );
    instance.on('response', (_client, _status, _bytes, responseTimeMs) => connection.timed(responseTimeMs));
  });
}
