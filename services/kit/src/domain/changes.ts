// Field changes, as the rehearsal effects, the events and the activity trail all report them.
import type { common } from '@fieldops/proto';
import { compact } from './fields.ts';

const shown = (value: unknown): string | undefined =>
  value === undefined || value === null ? undefined : String(value);

/** One FieldChange per listed field whose value differs between before and after. */
export function diffFields<T extends object>(
  before: T,
  after: T,
  fields: readonly (keyof T & string)[],
): common.FieldChange[] {
  return fields
    .filter((field) => shown(before[field]) !== shown(after[field]))
    .map((field) => compact({ field, from: shown(before[field]), to: shown(after[field]) }));
}

/** The fields a create sets, each as a change from nothing. */
export function setFields<T extends object>(
  doc: T,
  fields: readonly (keyof T & string)[],
): common.FieldChange[] {
  return fields
    .filter((field) => shown(doc[field]) !== undefined)
    .map((field) => compact({ field, to: shown(doc[field]) }));
}

/** "status New → Contacted, phone" — the changes in a willDo sentence. */
export function describeChanges(changes: readonly common.FieldChange[]): string {
  return changes
    .map((change) =>
      change.field === 'status' || change.field === 'stage'
        ? `${change.field} ${change.from ?? '(none)'} → ${change.to ?? '(none)'}`
        : change.field,
    )
    .join(', ');
}
