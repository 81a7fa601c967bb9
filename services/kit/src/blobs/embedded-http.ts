// The HTTP side of the embedded blob store: answers PUT and GET on presigned URLs. Mounted by the
// gateway under /blobs (gateway/src/blobs); a plain node handler so kit's tests serve it too.
// Refusals are 403 like S3's (altered or foreign signature, expired URL, wrong method, a
// Content-Type other than the pinned one, a Content-Length other than the signed one, as S3 answers a
// presigned PUT whose signed headers differ), 409 conflict for a second write to a URL whose bytes
// are in, 413 for a body that streams past its length.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../errors.ts';
import { BlobTooLarge, dispositionOf, type EmbeddedBlobStore } from './embedded.ts';
import { sameContentType } from './http-values.ts';
import { UrlRefused, type UrlGrant } from './url-signature.ts';

type Reply = { status: number; code: string; error: string };

function send(res: ServerResponse, reply: Reply): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ ok: false, code: reply.code, error: reply.error, retryable: false });
  res.writeHead(reply.status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

const REFUSAL_CODES: Record<UrlRefused['reason'], string> = {
  signature: 'invalid_token',
  expired: 'expired',
  method: 'invalid_token',
  content_type: 'field_invalid',
  length: 'field_invalid',
  written: 'conflict',
};

const STATUS: Partial<Record<UrlRefused['reason'], number>> = { written: 409 };

/** Handles one request whose URL path (after the mount point) is `/<key>?<grant>`. */
export async function handleBlobRequest(
  store: EmbeddedBlobStore,
  req: IncomingMessage,
  res: ServerResponse,
  pathAndQuery: string,
): Promise<void> {
  try {
    const url = new URL(pathAndQuery, 'http://blob.invalid');
    const grant = store.verify(req.method ?? '', url.pathname, url.searchParams);
    if (grant.method === 'PUT') await acceptUpload(store, grant, req, res);
    else await serveDownload(store, grant, req, res);
  } catch (error) {
    send(res, replyFor(error));
  }
}

function replyFor(error: unknown): Reply {
  if (error instanceof UrlRefused) {
    return {
      status: STATUS[error.reason] ?? 403,
      code: REFUSAL_CODES[error.reason],
      error: error.message,
    };
  }
  if (error instanceof BlobTooLarge) return { status: 413, code: 'field_invalid', error: error.message };
  if (error instanceof AppError) return { status: error.http, code: error.code, error: error.message };
  return { status: 500, code: 'internal', error: 'The blob could not be handled; retry.' };
}

async function acceptUpload(
  store: EmbeddedBlobStore,
  grant: UrlGrant,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const pinned = grant.contentType ?? '';
  if (!sameContentType(req.headers['content-type'], pinned)) {
    throw new UrlRefused(
      'content_type',
      `This URL accepts only Content-Type "${pinned}" (the type declared at presign); send exactly that header.`,
    );
  }
  const sent = req.headers['content-length'];
  if (grant.contentLength !== undefined && (sent === undefined || Number(sent) !== grant.contentLength)) {
    throw new UrlRefused(
      'length',
      `This URL accepts exactly ${grant.contentLength} bytes, the size declared at presign, sent with Content-Length: ${grant.contentLength}; ` +
        `this request ${sent === undefined ? 'has no Content-Length' : `says ${sent}`}. Presign again with the file's real size.`,
    );
  }
  const head = await store.putOnce(grant, req);
  res.writeHead(200, { etag: `"${head.etag}"`, 'content-length': 0 });
  res.end();
}

/** `bytes=a-b`, `bytes=a-` or `bytes=-n`; anything else is served whole, as HTTP allows. */
function parseRange(header: string | undefined, size: number): { start: number; end?: number } | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') return { start: Math.max(0, size - Number(match[2])) };
  return { start: Number(match[1]), ...(match[2] !== '' ? { end: Number(match[2]) } : {}) };
}

async function serveDownload(
  store: EmbeddedBlobStore,
  grant: UrlGrant,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const head = await store.head(grant.key);
  if (!head) throw new AppError('not_found', 'Nothing is stored under this URL.');
  const range = parseRange(req.headers.range, head.size);
  if (range && range.start >= head.size) {
    res.writeHead(416, { 'content-range': `bytes */${head.size}` });
    res.end();
    return;
  }
  const read = await store.get(grant.key, range ? { range } : {});
  if (!read) throw new AppError('not_found', 'Nothing is stored under this URL.');
  const disposition = dispositionOf(grant);
  const served = read.range;
  res.writeHead(served ? 206 : 200, {
    'content-type': head.contentType,
    'content-length': served ? served.end - served.start + 1 : head.size,
    etag: `"${head.etag}"`,
    'accept-ranges': 'bytes',
    'cache-control': 'private, no-store',
    ...(served ? { 'content-range': `bytes ${served.start}-${served.end}/${head.size}` } : {}),
    ...(disposition ? { 'content-disposition': disposition } : {}),
  });
  if (req.method === 'HEAD') {
    read.body.destroy();
    res.end();
    return;
  }
  await pipeline(read.body, res);
}
