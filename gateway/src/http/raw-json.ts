// JSON a service already serialised (a list page's items as items_json), carried through a
// handler's body to the answer unchanged: the gateway neither decodes nor re-stringifies it.
import type { Response } from 'express';

/** A top-level member of an answer's body whose value is JSON text, sent as it is. */
export class RawJson {
  constructor(readonly json: string) {}

  /** The bytes a service sent (UTF-8 JSON), as a member value. */
  static of(bytes: Uint8Array): RawJson {
    return new RawJson(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  }
}

const hasRaw = (body: Record<string, unknown>): boolean =>
  Object.values(body).some((value) => value instanceof RawJson);

/**
 * `JSON.stringify(body)` with RawJson members spliced in: same members, order and skipping of
 * undefined values, so the text is what `res.json` would send had the member been parsed.
 */
export function spliceJson(body: Record<string, unknown>): string {
  const members: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    const json = value instanceof RawJson ? value.json : JSON.stringify(value);
    if (json !== undefined) members.push(`${JSON.stringify(key)}:${json}`);
  }
  return `{${members.join(',')}}`;
}

/** `res.status(status).json(body)`, without parsing or re-stringifying RawJson members. */
export function sendJson(res: Response, status: number, body: Record<string, unknown>): void {
  if (!hasRaw(body)) return void res.status(status).json(body);
  if (!res.get('Content-Type')) res.set('Content-Type', 'application/json');
  res.status(status).send(spliceJson(body));
}
