// A document answered as its own bytes (HandlerResult.file): a report's PDF, CSV or GeoJSON. Saved
// under its name by a browser, never cached by a proxy (it holds a tenant's figures), and never
// sniffed into another type.
import type { Response } from 'express';
import type { AnsweredFile } from '../endpoint/types.ts';

/** The name in Content-Disposition: ASCII as is, anything else percent-encoded (RFC 6266). */
const disposition = (filename: string): string => {
  const ascii = filename.replace(/[^\w.-]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
};

export function sendFile(res: Response, file: AnsweredFile): void {
  res.status(200);
  res.setHeader('Content-Type', file.contentType);
  res.setHeader('Content-Disposition', disposition(file.filename));
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength));
}
