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

export class Connection {
  private flow: Flow | undefined;
  private pending: RequestSpec | undefined;
  private reply: Reply | undefined;
  private iteration = 0;
  private lastStep = '';
  private readonly origin: string;

  private readonly scenario: Scenario;
  private readonly data: unknown;
  private readonly vu: number;
  private readonly run: string;
  private readonly target: Target;
  private readonly stats: ScenarioStats;
  constructor(
    scenario: Scenario,
    data: unknown,
    vu: number,
    run: string,
    target: Target,
    stats: ScenarioStats,
  ) {
    this.scenario = scenario;
    this.data = data;
    this.vu = vu;
    this.run = run;
    this.target = target;
    this.stats = stats;
    this.origin = new URL(target.url).origin;
  }

  private startIteration(): IteratorResult<RequestSpec, void> {
    const tools = { check: (name: string, ok: boolean) => this.stats.check(name, ok) };
    const vu = { vu: this.vu, iteration: this.iteration++, run: this.run };
    this.flow = this.scenario.iteration(this.data, vu, tools);
    return this.flow.next();
  }

  private advance(): IteratorResult<RequestSpec, void> {
    if (!this.flow || !this.reply) return this.startIteration();
    const reply = this.reply;
    this.reply = undefined;
    return this.flow.next(reply);
  }

  /** The flow's next request; a flow that throws counts as a failed check and starts over. */
  nextRequest(): RequestSpec {
    if (this.pending) {
      // No answer came (a timeout or a dropped connection, counted by autocannon): start over.
      this.pending = undefined;
      this.flow = undefined;
      this.reply = undefined;
    }
    for (let empty = 0; empty < MAX_EMPTY_ITERATIONS;) {
      let step: IteratorResult<RequestSpec, void>;
      try {
        step = this.advance();
      } catch (err) {
        this.stats.check(`flow error: ${err instanceof Error ? err.message : String(err)}`, false);
        this.flow = undefined;
        empty++;
        continue;
      }
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
      this.pending = step.value;
      return step.value;
    }
    throw new Error(`${this.scenario.name}: ${MAX_EMPTY_ITERATIONS} iterations in a row sent nothing`);
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
    this.reply = { status, headers: lowercased(headers), body: parseBody(body) };
  }

  /** autocannon's timing of the answer just recorded. */
  timed(milliseconds: number): void {
    this.stats.timed(this.lastStep, milliseconds);
  }
}

/** Drives one connection for `seconds`; resolves with autocannon's result. */
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
