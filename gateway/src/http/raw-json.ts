// JSON a service already serialised (a list page's items as items_json), carried through a
// handler's body to the answer unchanged: the gateway neither decodes nor re-stringifies it, and
// does not even turn the bytes into a string (they go into the answer's buffer as they came).
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
export function spliceJsonBytes(body: Record<string, unknown>): Buffer {
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
  return Buffer.concat(parts);
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
  res.status(status).send(spliceJsonBytes(body));
}
