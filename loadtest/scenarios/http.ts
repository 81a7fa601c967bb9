// What a scenario says to a load driver and what it hears back. Scenarios are written as generators
// that yield one request at a time and receive its reply, so the same flow runs under k6 (whose
// http calls block, driven in a plain loop) and under the Node runner (autocannon, driven one
// reply at a time). Nothing here may use k6 or Node APIs: both programs type-check this folder.

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** One HTTP request of a flow. */
export interface RequestSpec {
  /** Names the request in per-step figures (a k6 tag, a row of the runner's step table). */
  step: string;
  method: Method;
  /**
   * A path under the deployment (`/api/v1/leads`, sent with the load-test token), or an absolute
   * URL handed out by the API (a presigned upload, sent exactly as given, without the token).
   */
  path: string;
  headers?: Record<string, string>;
  /** Already serialised; see json(). */
  body?: string;
  /** Statuses that count as success; anything else counts against the error rate. */
  expect: readonly number[];
}

/** A reply as a flow sees it: header names lowercased, a JSON body parsed (undefined otherwise). */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** A flow: yields requests, is resumed with each reply, returns its result. */
export type Flow<T = void> = Generator<RequestSpec, T, Reply>;

/** What a flow may record besides requests. */
export interface FlowTools {
  /** A named assertion on what came back; a false one counts as a failed check. */
  check(name: string, ok: boolean): void;
}

export const API = '/api/v1';

/** A request with a JSON body. */
export function json(
  step: string,
  method: Method,
  path: string,
  body: unknown,
  expect: readonly number[],
  headers: Record<string, string> = {},
): RequestSpec {
  return {
    step,
    method,
    path,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    expect,
  };
}

export function get(step: string, path: string, headers: Record<string, string> = {}): RequestSpec {
  return { step, method: 'GET', path, headers, expect: [200] };
}

export const isAbsolute = (path: string): boolean => /^https?:\/\//i.test(path);

export type Json = Record<string, unknown>;

export function asRecord(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

export function asString(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** body[member].id, e.g. the id of `{ok, lead: {id}}`. */
export function idOf(reply: Reply, member: string): string {
  return asString(asRecord(asRecord(reply.body)[member]).id);
}

/** The body's code on an error reply, or ''. */
export const codeOf = (reply: Reply): string => asString(asRecord(reply.body).code);

/** One line naming what came back, for a skip reason or an error message. */
export function describe(reply: Reply): string {
  const body = asRecord(reply.body);
  const code = asString(body.code);
  const error = asString(body.error);
  return `${reply.status}${code ? ` ${code}` : ''}${error ? ` ("${error}")` : ''}`;
}

/** Thrown by a setup flow when the deployment does not answer as the scenario needs. */
export class SetupError extends Error {
  constructor(request: RequestSpec, reply: Reply) {
    super(`${request.method} ${request.path} (${request.step}) answered ${describe(reply)}`);
    this.name = 'SetupError';
  }
}

/** Yields `request` and returns the reply, refusing any status the request does not expect. */
export function* send(request: RequestSpec): Flow<Reply> {
  const reply = yield request;
  if (!request.expect.includes(reply.status)) throw new SetupError(request, reply);
  return reply;
}

/** An id for keys and names that differ between runs, without any runtime's crypto. */
export function runId(): string {
  return Math.floor(Math.random() * 0xffffffff)
    .toString(16)
    .padStart(8, '0');
}
