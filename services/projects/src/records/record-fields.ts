// The body rules of project records, read from the per-kind table in contracts: which fields a
// kind takes (others are unknown: bodies are discriminated on kind), which a create must carry,
// and the values each field accepts. The gateway validates shapes; these rules hold for any caller.
import {
  ID_REF_MAX,
  isRecordKind,
  RECORD_ASSIGNEES_MAX,
  RECORD_FIELD_LIMITS,
  RECORD_KIND_FIELDS,
  RECORD_KINDS,
  RECORD_PRIORITIES,
  recordFieldsOf,
  type RecordKind,
} from '@fieldops/contracts';
import { checkEachLength, cleanText, compact } from '@fieldops/kit/domain';
import { AppError } from '@fieldops/kit';
import type { RecordFields } from './record.model.ts';

/** The kind named in a request, checked against the kinds this call takes. */
export function kindOf(value: string, allowed: readonly RecordKind[] = RECORD_KINDS): RecordKind {
  if (!value)
    throw new AppError('field_required', `kind is required: one of ${allowed.join(', ')}.`, {
      field: 'kind',
    });
  if (!isRecordKind(value) || !allowed.includes(value)) {
    throw new AppError('field_invalid_enum', `kind must be one of ${allowed.join(', ')}.`, {
      field: 'kind',
      allowed: [...allowed],
    });
  }
  return value;
}

/**
 * The fields sent, cleaned and checked for `kind`. `sent` holds only what the caller sent
 * (undefined = not sent); an empty string clears an optional field on amend.
 */
export function recordFields(kind: RecordKind, sent: RecordFields): RecordFields {
  const taken = recordFieldsOf(kind);
  const named = (Object.keys(sent) as (keyof RecordFields)[]).filter((field) => sent[field] !== undefined);
  const foreign = named.filter((field) => !taken.includes(field));
  if (foreign.length) {
    throw new AppError(
      'unknown_field',
      `A ${kind} record does not take ${foreign.join(', ')}; its fields are ${taken.join(', ')}.`,
      { field: foreign[0], fields: foreign },
    );
  }
  return compact({
    ...textFields(sent),
    priority: priorityOf(sent.priority),
    dueDate: dueDateOf(sent.dueDate),
    assignees: assigneesOf(sent.assignees),
  });
}

/** Refuses a record of `kind` that lacks a field its kind requires (spec: per kind). */
export function assertRequired(kind: RecordKind, fields: RecordFields): void {
  const missing = RECORD_KIND_FIELDS[kind].required.filter((field) => !cleanText(fields[field]));
  if (missing.length) {
    throw new AppError('field_required', `A ${kind} record needs ${missing.join(' and ')}.`, {
      field: missing[0],
      fields: missing,
    });
  }
}

function textFields(sent: RecordFields): RecordFields {
  const out: Record<string, string> = {};
  for (const [field, max] of Object.entries(RECORD_FIELD_LIMITS)) {
    const value = sent[field as keyof typeof RECORD_FIELD_LIMITS];
    if (value === undefined) continue;
    if (value.length > max) {
      throw new AppError('field_too_long', `${field} must be at most ${max} characters.`, {
        field,
        maxLength: max,
      });
    }
    out[field] = value.trim();
  }
  return out;
}

function priorityOf(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return value;
  if (!(RECORD_PRIORITIES as readonly string[]).includes(value)) {
    throw new AppError('field_invalid_enum', `priority must be one of ${RECORD_PRIORITIES.join(', ')}.`, {
      field: 'priority',
      allowed: [...RECORD_PRIORITIES],
    });
  }
  return value;
}

function dueDateOf(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return value;
  const time = Date.parse(`${value}T00:00:00Z`);
  // Date.parse rolls 2026-02-30 over to March; a real date reads back unchanged.
  const valid =
    /^\d{4}-\d{2}-\d{2}$/.test(value) &&
    !Number.isNaN(time) &&
    new Date(time).toISOString().startsWith(value);
  if (!valid) {
    throw new AppError('field_invalid', 'dueDate must be a calendar date such as 2026-03-31.', {
      field: 'dueDate',
    });
  }
  return value;
}

function assigneesOf(value: string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  checkEachLength('assignees', ID_REF_MAX, value);
  const ids = [...new Set(value.map((id) => id.trim()).filter(Boolean))];
  if (ids.length > RECORD_ASSIGNEES_MAX) {
    throw new AppError('field_invalid', `assignees takes up to ${RECORD_ASSIGNEES_MAX} member ids.`, {
      field: 'assignees',
    });
  }
  return ids;
}
