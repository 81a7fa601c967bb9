// Translates the port's Filter into a MongoDB query. The port's filter semantics were written to
// be MongoDB's (see ../filter.ts), so most of this is a copy; the two differences are `$contains`
// (a case-insensitive, escaped regex) and that validation is the embedded store's own compiler, so
// both adapters refuse exactly the same malformed filters before anything reaches the server.
import type { mongo } from 'mongoose';
import { compileFilter } from '../filter.ts';
import type { Condition, Filter } from '../port.ts';

export type MongoQuery = mongo.Filter<mongo.Document>;

/** The port's operators that MongoDB spells the same way. */
const SAME_IN_MONGO = new Set(['$eq', '$ne', '$in', '$nin', '$gt', '$gte', '$lt', '$lte', '$exists']);

/** A tenant's documents matching `filter`; throws on a filter the embedded store would refuse too. */
export function tenantQuery(tenantId: string, filter: Filter | undefined): MongoQuery {
  compileFilter(filter);
  const translated = translate(filter ?? {});
  // The tenant condition comes first and cannot be overridden by a filter naming tenantId itself.
  return 'tenantId' in translated ? { $and: [{ tenantId }, translated] } : { tenantId, ...translated };
}

/** The MongoDB query for an already validated filter. */
export function translate(filter: Filter): MongoQuery {
  const query: MongoQuery = {};
  for (const [key, condition] of Object.entries(filter)) {
    if (condition === undefined) continue;
    if (key === '$or') query.$or = (condition as Filter[]).map(translate);
    else query[key] = translateCondition(condition as Condition);
  }
  return query;
}

function translateCondition(condition: Condition): unknown {
  if (condition === null || typeof condition !== 'object') return condition;
  const operators: Record<string, unknown> = {};
  for (const [operator, operand] of Object.entries(condition)) {
    if (operand === undefined) continue;
    if (SAME_IN_MONGO.has(operator)) operators[operator] = operand;
    else if (operator === '$contains') Object.assign(operators, containsRegex(operand as string));
  }
  return operators;
}

/**
 * `$contains` as a regex: escaped so the needle is literal text (a user's `q=a.b` must not match
 * "axb"), and matched only against strings, as MongoDB applies a regex to strings alone. A NUL,
 * which the server refuses inside a pattern, is written as the escape `\x00` that matches it.
 */
export function containsRegex(needle: string): { $regex: string; $options: string } {
  const literal = needle
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .split('\u0000')
    .join('\\x00');
  return { $regex: literal, $options: 'i' };
}
