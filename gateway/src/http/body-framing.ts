// What a request's framing says of its body, before any of it is read.
import type { IncomingMessage } from 'node:http';

/**
 * Whether the request announces body bytes: a Transfer-Encoding, or a Content-Length above 0.
 * Without either a request has none (RFC 9112, 6.3), as a GET usually does.
 */
export const announcesBody = (req: IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
