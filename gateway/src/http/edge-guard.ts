// The first middleware of the gateway: refuses what no endpoint could read, before routing and
// body parsing. A path segment that is not valid percent-encoded UTF-8 is 400 field_invalid naming
// the path parameter it falls on (Express would throw a URIError from its router); a JSON body in
// any charset but UTF-8 is 415 (the pipeline reads JSON as UTF-8, RFC 8259 §8.1). Failures that
// only show while the body is read (too large, an unknown or corrupt Content-Encoding) are mapped
// where errors are rendered (edge-errors.ts via error-body.ts).
import type { NextFunction, Request, Response } from 'express';
import { announcesBody } from './body-framing.ts';
import { badPathEncoding, unsupportedCharset } from './edge-errors.ts';

/** A route template as registered, e.g. `/api/v1/customers/:id`. */
export type RouteTemplate = string;

const segmentsOf = (path: string): string[] => path.split('/').slice(1);

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

const safeDecode = (segment: string): string => (decodes(segment) ? decodeURIComponent(segment) : segment);

/**
 * The name of the path parameter at `index` in a request path, from the first template that the
 * path fits (same length, literal segments equal); `path` when none fits.
 */
export function paramNameAt(templates: readonly RouteTemplate[], segments: string[], index: number): string {
  for (const template of templates) {
    const parts = segmentsOf(template);
    if (parts.length !== segments.length || !parts[index]?.startsWith(':')) continue;
    const fits = parts.every(
      (part, i) => i === index || part.startsWith(':') || part === safeDecode(segments[i] ?? ''),
    );
    if (fits) return parts[index].slice(1);
  }
  return 'path';
}

const JSON_TYPE = /^application\/([\w.+-]+\+)?json$/i;

/** The charset a JSON body declares when it is not UTF-8; undefined when fine or not JSON. */
function foreignJsonCharset(req: Request): string | undefined {
  const header = req.headers['content-type'];
  if (!header || !announcesBody(req)) return undefined;
  const [type = '', ...params] = header.split(';').map((part) => part.trim());
  if (!JSON_TYPE.test(type)) return undefined;
  const declared = params.find((param) => /^charset\s*=/i.test(param));
  if (declared === undefined) return undefined;
  const charset = declared
    .slice(declared.indexOf('=') + 1)
    .trim()
    .replace(/^"(.*)"$/, '$1')
    .toLowerCase();
  return charset === 'utf-8' || charset === 'utf8' ? undefined : charset.slice(0, 40);
}

/** The edge guard; `templates` are the full paths of the registered routes, for naming parameters. */
export function edgeGuard(templates: readonly RouteTemplate[]) {
  return (req: Request, res: Response, next: NextFunction): void => {
    // req.path parses the URL on every read.
    const path = req.path;
    // Every /api/v1 response names a bucket, even one refused here; an endpoint names its own.
    if (path.startsWith('/api/v1/')) {
      res.setHeader('X-RateLimit-Bucket', req.method === 'GET' ? 'reads' : 'writes');
    }
    // Only a percent sign can make decodeURIComponent throw, so most paths skip the per-segment check.
    if (path.includes('%')) {
      const segments = segmentsOf(path);
      const bad = segments.findIndex((segment) => !decodes(segment));
      if (bad >= 0) throw badPathEncoding(paramNameAt(templates, segments, bad));
    }
    const charset = foreignJsonCharset(req);
    if (charset !== undefined) throw unsupportedCharset(charset);
    next();
  };
}
