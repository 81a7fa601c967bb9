// What the gateway's HTTP listener allows one client, so slow and idle clients cannot hold its
// sockets (issue 23): a cap on connections per process, a deadline for a request's headers that
// also covers a connection that sends nothing at all, a deadline for an API request's body (408),
// a longer one for uploads to the embedded blob store's presigned URLs, and idle keep-alive
// connections closed. Settings: FIELDOPS_HTTP_* (services/kit/src/config.ts, docs/configuration.md).
import { randomUUID } from 'node:crypto';
import {
  createServer,
  STATUS_CODES,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';
import type { HttpEdge } from '@fieldops/kit';
import type { Express } from 'express';
import { BLOB_ROUTE } from './blobs/blob.router.ts';
import { announcesBody } from './http/body-framing.ts';

/** An HTTP server for the app with the edge's limits applied. */
export function createEdgeServer(app: Express, edge: HttpEdge): Server {
  const server = createServer(
    {
      // Node's own deadlines: headers, and the whole request (the upload deadline, the longest).
      headersTimeout: edge.headersTimeoutMs,
      requestTimeout: edge.uploadTimeoutMs,
      // How often Node checks those two; its default (30 s) would let a deadline overrun by as much.
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(edge.headersTimeoutMs / 4))),
    },
    app,
  );
  server.keepAliveTimeout = edge.keepAliveTimeoutMs;
  server.maxConnections = edge.maxConnections;
  // Node's headersTimeout starts with a request's first byte: a connection that sends nothing
  // would stay open forever. It gets the same time to send its first request.
  const silent = new WeakMap<Socket, NodeJS.Timeout>();
  server.on('connection', (socket: Socket) => {
    const timer = setTimeout(() => socket.destroy(), edge.headersTimeoutMs);
    timer.unref();
    silent.set(socket, timer);
    socket.once('close', () => clearTimeout(timer));
  });
  server.on('clientError', answerParserRefusal);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    clearTimeout(silent.get(req.socket));
    if ((req.url ?? '').startsWith(`${BLOB_ROUTE}/`)) return; // Node's requestTimeout bounds uploads
    bodyDeadline(req, res, edge.requestTimeoutMs);
  });
  return server;
}

/** An API request whose body has not all arrived within `ms` of its headers is answered 408. */
function bodyDeadline(req: IncomingMessage, res: ServerResponse, ms: number): void {
  // A request that announces no body is complete with its headers (Node marks it so only after the
  // 'request' event): nothing to wait for, and no timer and three listeners on every page read.
  if (req.complete || !announcesBody(req)) return;
  const timer = setTimeout(() => {
    if (req.complete) return;
    const seconds = ms / 1000;
    if (!res.headersSent) {
      const body = JSON.stringify({
        ok: false,
        code: 'invalid_body',
        error: `The request body did not arrive within ${seconds} s of its headers; send it at once (files go to the presigned upload URLs).`,
        retryable: false,
      });
      res.writeHead(408, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
        connection: 'close',
      });
      res.end(body, () => req.socket.destroy());
    } else {
      req.socket.destroy();
    }
  }, ms);
  timer.unref();
  const done = () => clearTimeout(timer);
  req.once('end', done);
  req.once('close', done);
  res.once('close', done);
}

/**
 * A request Node's HTTP parser refuses (bad header bytes, bad chunking, oversized headers) or
 * times out never reaches the app; without this Node answers an empty 400 (408, 431). Answered
 * in the JSON envelope with an X-Request-Id where the socket still allows an answer (issue 25);
 * the statuses stay Node's.
 */
function answerParserRefusal(err: Error & { code?: string }, socket: Socket): void {
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const status =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const error =
    status === 408
      ? 'The request did not arrive in time; send the whole request at once.'
      : status === 431
        ? 'The request headers are too large.'
        : `The request is not valid HTTP/1.1 (${err.code ?? 'parse error'}): check the header bytes, Content-Length and chunked encoding.`;
  const requestId = `req_${randomUUID()}`;
  const body = JSON.stringify({ ok: false, code: 'invalid_body', error, retryable: false });
  socket.end(
    [
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Bad Request'}`,
      'content-type: application/json; charset=utf-8',
      `content-length: ${Buffer.byteLength(body)}`,
      `x-request-id: ${requestId}`,
      'cache-control: no-store',
      'connection: close',
      '',
      body,
    ].join('\r\n'),
  );
}
