// Runs a flow with fetch, one request after another: the scenarios' setup (seeding, probes) and
// tenant provisioning, which are not measured.
import { isAbsolute, type Flow, type Reply, type RequestSpec } from '../scenarios/http.ts';

export interface Target {
  /** The platform's origin, e.g. http://127.0.0.1:8080. */
  url: string;
  /** The bearer sent on API paths ('' for none). */
  token: string;
}

export function lowercased(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

export function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The headers a request goes out with: the token on API paths, never on presigned URLs. */
export function headersFor(target: Target, spec: RequestSpec): Record<string, string> {
  const auth: Record<string, string> =
    !isAbsolute(spec.path) && target.token ? { authorization: `Bearer ${target.token}` } : {};
  return { ...auth, ...spec.headers };
}

async function perform(target: Target, spec: RequestSpec): Promise<Reply> {
  const url = isAbsolute(spec.path) ? spec.path : `${target.url}${spec.path}`;
  const res = await fetch(url, { method: spec.method, headers: headersFor(target, spec), body: spec.body });
  return {
    status: res.status,
    headers: lowercased(Object.fromEntries(res.headers)),
    body: parseBody(await res.text()),
  };
}

export async function runFlow<T>(flow: Flow<T>, target: Target): Promise<T> {
  let next = flow.next();
  while (!next.done) next = flow.next(await perform(target, next.value));
  return next.value;
}
