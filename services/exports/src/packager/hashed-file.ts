// Writes a staging file while hashing exactly the bytes written, so a checksum in the manifest is
// the checksum of the file as it lands in the archive, computed once.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '@fieldops/kit/process';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface HashedFile {
  bytes: number;
  /** Hex, as sha256sum prints it. */
  sha256: string;
}

export async function writeHashedFile(
  path: string,
  body: Readable | AsyncIterable<string | Buffer>,
): Promise<HashedFile> {
  await mkdir(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
  const hash = createHash('sha256');
  let bytes = 0;
  const meter = new Transform({
    transform(chunk: Buffer | string, _encoding, done) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      hash.update(buffer);
      bytes += buffer.length;
      done(null, buffer);
    },
  });
  const source = body instanceof Readable ? body : Readable.from(body);
  await pipeline(source, meter, createWriteStream(path, { mode: PRIVATE_FILE_MODE }));
  return { bytes, sha256: hash.digest('hex') };
}
