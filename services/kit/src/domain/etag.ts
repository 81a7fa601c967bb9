// Etags and the If-Match check shared by every amendable record of every service.
import { AppError } from '../errors.ts';
import type { Doc } from '../store/port.ts';

/**
 * `<id>:v<version>` (the ETag header quotes it). The version alone never repeats within a record; the id keeps an etag read
 * from one record from ever matching another, so a caller that mixes up two ids gets a 409
 * instead of overwriting the wrong record.
 */
export const etagOf = (doc: Pick<Doc, 'id' | 'version'>): string => `${doc.id}:v${doc.version}`;

/** Compares entity tags the way If-Match is written: quotes and a weak W/ prefix are optional. */
const bare = (tag: string): string =>
  tag
    .trim()
    .replace(/^W\//, '')
    .replace(/^"(.*)"$/, '$1');

/**
 * Refuses a write whose If-Match is neither `*` nor the record's current etag (a list of etags is
 * accepted, as in HTTP). The current record, as the API shows it, rides on the 409 so the caller
 * can merge without another read.
 */
export function assertIfMatch(ifMatch: string, doc: Pick<Doc, 'id' | 'version'>, current: unknown): void {
  const sent = ifMatch.split(',').map(bare).filter(Boolean);
  if (sent.length === 0) {
    throw new AppError(
      'precondition_required',
      'This write needs an If-Match header: the etag from a read, or *.',
    );
  }
  const etag = bare(etagOf(doc));
  if (sent.some((tag) => tag === '*' || tag === etag)) return;
  throw new AppError(
    'conflict',
    `The record changed since it was read (If-Match ${ifMatch.trim()} is stale; the current etag is ${etagOf(doc)}). Merge with the current record attached and retry, or send If-Match * to overwrite.`,
    { current },
  );
}
