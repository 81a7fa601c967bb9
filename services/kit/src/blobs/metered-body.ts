// An upload's bytes on their way into either store: counted, refused once past the limit, and
// hashed as they pass, so neither adapter buffers a body or reads it twice.
import { createHash } from 'node:crypto';
import { pipeline, Readable, Transform } from 'node:stream';
import { AppError } from '../errors.ts';

/** Thrown by put() when the body is longer than allowed; nothing is stored. */
export class BlobTooLarge extends AppError {
  readonly limit: number;
  constructor(limit: number) {
    super('field_invalid', `The body is longer than the ${limit} bytes allowed for this object.`, {
      field: 'body',
    });
    this.limit = limit;
  }
}

export interface MeteredBody {
  /** The body as a stream: pipe it into the store; it fails with BlobTooLarge past the limit. */
  stream: Readable;
  /** Bytes that passed so far (all of them once the stream ended). */
  size(): number;
  /** SHA-256 of the bytes, once the stream ended. */
  sha256(): Buffer;
}

export function meteredBody(body: Readable | Uint8Array, limit: number): MeteredBody {
  const hash = createHash('sha256');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > limit) return done(new BlobTooLarge(limit));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  const source = body instanceof Readable ? body : Readable.from([Buffer.from(body)]);
  // Either side failing destroys both; the failure reaches whoever reads the stream.
  pipeline(source, meter, () => undefined);
  return { stream: meter, size: () => size, sha256: () => hash.digest() };
}
