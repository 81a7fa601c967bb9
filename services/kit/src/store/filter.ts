// Filter evaluation for the embedded store, compiled once per query into a predicate (which also
// validates the filter before any document is looked at, so a bad filter fails even on an empty
// collection).
//
// Semantics follow MongoDB on purpose, because the MongoDB adapter runs the same contract suite:
// - `{f: null}` / `{f: {$eq: null}}` match a missing field as well as a null one; `$in: [null]` too.
// - `$ne` / `$nin` are the exact negation of `$eq` / `$in`, so `{f: {$ne: 'x'}}` matches documents
//   where `f` is missing, and `{f: {$ne: null}}` matches only documents where `f` is set and non-null.
// - `$exists: true` matches a field that is present, even when its value is null.
// - Range operators compare within one type only (numbers with numbers, strings with strings): a
//   missing, null or differently typed value never matches `$gt`, `$lt`, ….
// - When a value on the path is an array, a condition matches if any element matches (`{tags: 'a'}`
//   matches `tags: ['a', 'b']`), and a dot path fans out over arrays of objects.
// - `$contains` is a case-insensitive substring test on string values (other types never match).
// - A field whose condition is `undefined` is ignored, so optional criteria can be written inline.
// Where the two stores would differ, both refuse the same way instead (checked here, before a query
// reaches either): `$exists` takes only true or false (MongoDB reads `1` as true), and a path
// segment that is a number (`tags.0`, a position in an array on MongoDB, a field name here) is
// refused in filters and sorts alike.
import { compareValues } from './compare.ts';
import type { Condition, Doc, Filter, Scalar } from './port.ts';

export type Predicate = (doc: Doc) => boolean;

/** What a dot path finds in one document: the raw leaves (undefined where missing) and array elements. */
interface Found {
  leaves: unknown[];
  values: unknown[];
}

type Test = (found: Found) => boolean;

const OPERATORS = new Set([
  '$eq',
  '$ne',
  '$in',
  '$nin',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$exists',
  '$contains',
]);

export function compileFilter(filter: Filter | undefined): Predicate {
  if (filter === undefined) return () => true;
  const tests: Predicate[] = [];
  for (const [key, condition] of Object.entries(filter)) {
    if (condition === undefined) continue;
    if (key === '$or') tests.push(compileOr(condition));
    else if (key.startsWith('$')) throw new Error(`unsupported filter operator ${key}`);
    else tests.push(compileField(key, condition as Condition));
  }
  if (tests.length === 1 && tests[0]) return tests[0];
  return (doc) => tests.every((test) => test(doc));
}

function compileOr(alternatives: unknown): Predicate {
  const valid =
    Array.isArray(alternatives) &&
    alternatives.length > 0 &&
    alternatives.every((alt) => alt !== null && typeof alt === 'object' && !Array.isArray(alt));
  // MongoDB refuses an empty $or too; matching nothing (or everything) silently would hide a bug.
  if (!valid) throw new Error('$or takes a non-empty array of filters');
  const predicates = alternatives.map((alternative: Filter) => compileFilter(alternative));
  return (doc) => predicates.some((predicate) => predicate(doc));
}

function compileField(path: string, condition: Condition): Predicate {
  const parts = checkPath(path, 'filter');
  const test = compileCondition(path, condition);
  return (doc) => test(find(doc, parts));
}

/** Walks a dot path; the common case (no array on the way) allocates a single one-value list. */
function find(doc: Doc, parts: string[]): Found {
  let current: unknown = doc;
  for (const part of parts) {
    if (Array.isArray(current)) return fanOut(doc, parts);
    if (current === null || typeof current !== 'object') {
      current = undefined;
      break;
    }
    current = (current as Record<string, unknown>)[part];
  }
  const leaves = [current];
  return { leaves, values: Array.isArray(current) ? (current as unknown[]) : leaves };
}

function compileCondition(path: string, condition: Condition): Test {
  if (isScalar(condition)) return equals(condition);
  if (typeof condition !== 'object' || Array.isArray(condition)) {
    throw new Error(`filter on ${path}: a condition is a scalar or an operator object`);
  }
  const entries = Object.entries(condition).filter(([, operand]) => operand !== undefined);
  if (entries.length === 0) throw new Error(`filter on ${path}: empty condition`);
  const tests = entries.map(([operator, operand]) => compileOperator(path, operator, operand));
  return (found) => tests.every((test) => test(found));
}

function compileOperator(path: string, operator: string, operand: unknown): Test {
  if (!OPERATORS.has(operator)) throw new Error(`filter on ${path}: unsupported operator ${operator}`);
  switch (operator) {
    case '$eq':
      return equals(expectScalar(path, operator, operand));
    case '$ne':
      return not(equals(expectScalar(path, operator, operand)));
    case '$in':
      return oneOf(expectScalars(path, operator, operand));
    case '$nin':
      return not(oneOf(expectScalars(path, operator, operand)));
    case '$exists':
      if (typeof operand !== 'boolean') throw new Error(`filter on ${path}: $exists takes true or false`);
      return exists(operand);
    case '$contains':
      return contains(expectString(path, operator, operand));
    default:
      return range(operator, expectBound(path, operator, operand));
  }
}

function equals(expected: Scalar): Test {
  if (expected === null) {
    // MongoDB: null equality also matches a missing field (or an array holding null).
    return ({ leaves, values }) =>
      leaves.length === 0 ||
      leaves.some((leaf) => leaf === undefined || leaf === null) ||
      values.some((value) => value === null);
  }
  return ({ values }) => values.some((value) => value === expected);
}

function oneOf(expected: Scalar[]): Test {
  const tests = expected.map(equals);
  return (found) => tests.some((test) => test(found));
}

const not =
  (test: Test): Test =>
  (found) =>
    !test(found);

function exists(expected: boolean): Test {
  return ({ leaves }) => leaves.some((leaf) => leaf !== undefined) === expected;
}

function contains(needle: string): Test {
  const lowered = needle.toLowerCase();
  return ({ values }) =>
    values.some((value) => typeof value === 'string' && value.toLowerCase().includes(lowered));
}

function range(operator: string, bound: string | number): Test {
  const accepts = rangeCheck(operator);
  return ({ values }) =>
    values.some((value) => typeof value === typeof bound && accepts(compareValues(value, bound)));
}

function rangeCheck(operator: string): (order: number) => boolean {
  if (operator === '$gt') return (order) => order > 0;
  if (operator === '$gte') return (order) => order >= 0;
  if (operator === '$lt') return (order) => order < 0;
  return (order) => order <= 0;
}

/** Walks a dot path, fanning out over arrays of objects the way MongoDB does. */
function fanOut(doc: Doc, parts: string[]): Found {
  const leaves: unknown[] = [];
  collect(doc, parts, 0, leaves);
  const values: unknown[] = [];
  for (const leaf of leaves) {
    if (Array.isArray(leaf)) values.push(...(leaf as unknown[]));
    else values.push(leaf);
  }
  return { leaves, values };
}

function collect(value: unknown, parts: string[], index: number, out: unknown[]): void {
  if (index === parts.length) {
    out.push(value);
    return;
  }
  if (Array.isArray(value)) {
    for (const element of value as unknown[]) {
      if (element !== null && typeof element === 'object') collect(element, parts, index, out);
    }
    return;
  }
  if (value === null || typeof value !== 'object') {
    out.push(undefined);
    return;
  }
  collect((value as Record<string, unknown>)[parts[index] as string], parts, index + 1, out);
}

function isScalar(value: unknown): value is Scalar {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

function expectScalar(path: string, operator: string, operand: unknown): Scalar {
  if (!isScalar(operand)) throw new Error(`filter on ${path}: ${operator} takes a scalar`);
  return operand;
}

function expectScalars(path: string, operator: string, operand: unknown): Scalar[] {
  if (!Array.isArray(operand) || !operand.every(isScalar)) {
    throw new Error(`filter on ${path}: ${operator} takes an array of scalars`);
  }
  return operand;
}

function expectString(path: string, operator: string, operand: unknown): string {
  if (typeof operand !== 'string') throw new Error(`filter on ${path}: ${operator} takes a string`);
  return operand;
}

function expectBound(path: string, operator: string, operand: unknown): string | number {
  if (typeof operand !== 'string' && typeof operand !== 'number') {
    throw new Error(`filter on ${path}: ${operator} takes a string or a number`);
  }
  return operand;
}

/** The segments of a field path; refuses a numeric segment, which the stores would read apart. */
export function checkPath(path: string, use: 'filter' | 'sort'): string[] {
  const parts = path.split('.');
  if (parts.some((part) => /^\d+$/.test(part))) {
    throw new Error(
      `${use} on ${path}: a path segment that is a number is not supported (MongoDB reads it as a ` +
        'position in an array, the embedded store as a field name)',
    );
  }
  return parts;
}

/** Refuses a sort the two stores would order apart (see checkPath). */
export function checkSort(sort: { field: string } | undefined): void {
  if (sort !== undefined) checkPath(sort.field, 'sort');
}
