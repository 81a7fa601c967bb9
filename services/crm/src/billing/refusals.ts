// The refusals proposals, invoices and bookings share, worded the same way everywhere.
import { AppError } from '@fieldops/kit';

/** Spec: an illegal trigger is 409 conflict carrying the triggers legal from the current status. */
export function illegalTrigger(
  kind: string,
  id: string,
  status: string,
  trigger: string,
  legal: readonly string[],
): AppError {
  return new AppError(
    'conflict',
    `${kind} ${id} is ${status}, and ${trigger} is not a legal move from ${status}; the legal moves are: ${legal.join(', ') || 'none'}.`,
    { legalTriggers: [...legal], status },
  );
}

/** PATCH on a document that has left draft: its sent or issued version is what the customer has. */
export function notAmendable(kind: string, id: string, status: string, legal: readonly string[]): AppError {
  return new AppError(
    'conflict',
    `${kind} ${id} is ${status}; only a draft can be amended. Create a new ${kind} for a changed offer.`,
    { legalTriggers: [...legal], status },
  );
}

/** A date-time the caller gave that must lie ahead (validUntil, due dates, booking windows). */
export function assertFuture(field: string, iso: string | undefined, now = Date.now()): void {
  if (iso === undefined) return;
  const at = Date.parse(iso);
  if (Number.isNaN(at))
    throw new AppError('field_invalid', `${field} must be an ISO 8601 date-time.`, { field });
  if (at <= now) throw new AppError('field_invalid', `${field} must be in the future.`, { field });
}

/** A whole ISO date-time, normalised to UTC (the form every stored timestamp has). */
export function isoOrUndefined(field: string, value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at))
    throw new AppError('field_invalid', `${field} must be an ISO 8601 date-time.`, { field });
  return new Date(at).toISOString();
}

/** A required text field: trimmed, and refused when blank (the gateway checks too; this is the backstop). */
export function requiredText(field: string, value: string | undefined): string {
  const text = value?.trim();
  if (!text) throw new AppError('field_required', `${field} must not be empty.`, { field });
  return text;
}
