// JSON a service already serialised (a list page's items as items_json), carried through a
// handler's body to the answer unchanged: the gateway neither decodes nor re-stringifies it, and
// does not even turn the bytes into a string or copy them (they go to the socket as they came).
import type { Response } from 'express';

/** A top-level member of an answer's body whose value is JSON, sent as it is. */
export class RawJson {
  readonly bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  /** The bytes a service sent (UTF-8 JSON), as a member value. */
  static of(bytes: Uint8Array): RawJson {
    return new RawJson(bytes);
  }
}

const hasRaw = (body: Record<string, unknown>): boolean =>
  Object.values(body).some((value) => value instanceof RawJson);

/**
 * The UTF-8 of `JSON.stringify(body)` with RawJson members spliced in: same members, order and
 * skipping of undefined values, so the bytes are what `res.json` would send had the member been
 * parsed.
 */
function spliceJsonBytes(body: Record<string, unknown>): Buffer {
  return Buffer.concat(jsonParts(body));
}

/** The pieces of `spliceJsonBytes`, the RawJson members among them as the very bytes they came in. */
function jsonParts(body: Record<string, unknown>): Uint8Array[] {
  const parts: Uint8Array[] = [];
  let text = '{';
  let first = true;
  for (const [key, value] of Object.entries(body)) {
    const json = value instanceof RawJson ? '' : JSON.stringify(value);
    if (json === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:${json}`;
    first = false;
    if (value instanceof RawJson) {
      parts.push(Buffer.from(text), value.bytes);
      text = '';
    }
  }
  parts.push(Buffer.from(`${text}}`));
  return parts;
}

/** `spliceJsonBytes` as text. */
export const spliceJson = (body: Record<string, unknown>): string => spliceJsonBytes(body).toString('utf8');

/** `res.status(status).json(body)`, without parsing or re-stringifying RawJson members. */
export function sendJson(res: Response, status: number, body: Record<string, unknown>): void {
  if (!hasRaw(body)) return void res.status(status).json(body);
  // A type set earlier gets express's charset handling of a string body, as res.json would give it.
  if (res.get('Content-Type')) return void res.status(status).send(spliceJson(body));
  // What res.json sets; a Buffer body would otherwise go out as application/octet-stream.
  res.set('Content-Type', 'application/json; charset=utf-8');
  sendParts(res.status(status), jsonParts(body));
}

/** Statuses Express answers without a body. */
const NO_BODY = new Set([204, 205, 304]);

/**
 * `res.send(Buffer.concat(parts))` without the concatenation: the pieces go to the socket in one
 * corked write. A page's bytes are the largest buffer a list read makes; copying them once more
 * cost no CPU worth measuring, but the garbage buffers it left (outside V8's heap, so not what
 * sets the pace of its young collections) brought on a full collection of the whole heap about
 * twice as often once the decoded field was no longer a copy either (docs/performance.md, "A
 * page's bytes, copied once less"). What Express's send would do differently (an ETag to compute,
 * a 304, a status without a body) keeps its path.
 */
function sendParts(res: Response, parts: Uint8Array[]): void {
  if (
    res.app.get('etag fn') ||
    res.req.fresh ||
    NO_BODY.has(res.statusCode) ||
    res.get('Transfer-Encoding')
  ) {
    return void res.send(Buffer.concat(parts));
  }
  res.set('Content-Length', String(parts.reduce((sum, part) => sum + part.byteLength, 0)));
  if (res.req.method === 'HEAD') return void res.end();
  res.cork();
  const last = parts.length - 1;
  for (let i = 0; i < last; i++) res.write(parts[i]);
  res.end(parts[last]);
}
