// Turns zod validation failures into the spec's error codes, one issue at a time (the first
// one a person should fix). Every HTTP input — registry bodies and queries, the admin API, the
// portal — goes through parseInput, so the codes mean the same everywhere.
import { AppError } from '@fieldops/kit';
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

const pathOf = (issue: Issue, where: string): string =>
  issue.path.length ? issue.path.map(String).join('.') : where;

function issueToError(issue: Issue, where: string, input: unknown): AppError {
  const field = pathOf(issue, where);
  switch (issue.code) {
    case 'unrecognized_keys':
      return new AppError(
        'unknown_field',
        `Unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')} in the ${where}; remove ${issue.keys.length > 1 ? 'them' : 'it'} (fields are refused, not dropped).`,
        { field: issue.keys[0], fields: issue.keys },
      );
    case 'invalid_type':
      if (valueAt(input, issue.path) === undefined) {
        return new AppError('field_required', `${field} is required.`, { field });
      }
      if (issue.path.length === 0) {
        return new AppError('invalid_body', `The ${where} must be a JSON ${issue.expected}.`);
      }
      return new AppError('field_invalid', `${field} must be ${article(issue.expected)}.`, { field });
    case 'invalid_value':
      // zod reports a missing required enum as a bad value; the caller left it out.
      if (valueAt(input, issue.path) === undefined) {
        return new AppError('field_required', `${field} is required.`, { field });
      }
      return new AppError(
        'field_invalid_enum',
        `${field} must be one of ${issue.values.map(String).join(', ')}.`,
        { field, allowed: issue.values },
      );
    case 'too_big':
      if (issue.origin === 'string') {
        return new AppError(
          'field_too_long',
          `${field} must be at most ${String(issue.maximum)} characters.`,
          {
            field,
            maxLength: Number(issue.maximum),
          },
        );
      }
      return new AppError('field_invalid', `${field} must be at most ${String(issue.maximum)}.`, { field });
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) {
        return new AppError('field_required', `${field} must not be empty.`, { field });
      }
      return new AppError('field_invalid', `${field} must be at least ${String(issue.minimum)}.`, { field });
    default:
      return new AppError('field_invalid', `${field}: ${issue.message}.`, { field });
  }
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

const article = (expected: string): string =>
  /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;

/** Parses `input` with `schema`; throws the AppError for the first issue. `where` is "body" or "query". */
export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  where: 'body' | 'query',
): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const first = result.error.issues[0];
  throw first
    ? issueToError(first, where, input)
    : new AppError('invalid_body', `The ${where} is not valid.`);
}
