// The API's routes grouped by their first path segment (`/leads…`, `/projects…`), so that a
// request is matched only against the routes under its own first segment, not against every route
// registered before its own: a single Express router tries its layers one by one, and `GET /leads`
// came 42nd of 102. Express still matches within a group, with its own rules (case-insensitive,
// an optional trailing slash), so a group is keyed by the segment lower-cased.
import express, { type RequestHandler, type Router } from 'express';

/** `leads` of `/leads/:id`, lower-cased; '' for `/`. */
export function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return (end < 0 ? path.slice(1) : path.slice(1, end)).toLowerCase();
}

/**
 * One middleware that hands a request to the router of its first segment, made by `add` from the
 * routes of that segment in their order. Each group ends in `notFound`, as the single router did:
 * it also keeps Express from answering an OPTIONS request by itself with the methods it found.
 * A request whose first segment no route has goes on to the next middleware.
 */
export function routeGroups<R extends { path: string }>(
  routes: readonly R[],
  add: (group: Router, route: R) => void,
  notFound: RequestHandler,
): RequestHandler {
  const groups = new Map<string, Router>();
  for (const route of routes) {
    const key = firstSegment(route.path);
    if (key.startsWith(':')) throw new Error(`${route.path}: a route must start with a literal segment`);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = express.Router()));
    add(group, route);
  }
  for (const group of groups.values()) group.use(notFound);
  return (req, res, next) => {
    const group = groups.get(firstSegment(req.path));
    if (group) group(req, res, next);
    else next();
  };
}
