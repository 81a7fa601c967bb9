// An invoice's due date is a calendar date (YYYY-MM-DD): it is a day the customer pays by, not an
// instant, so no time zone can move it.
import { AppError } from '@fieldops/kit';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function dueDateOrUndefined(value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const match = DATE.exec(value.trim());
  const date = match ? new Date(`${value.trim()}T00:00:00Z`) : undefined;
  if (!match || !date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value.trim()) {
    throw new AppError('field_invalid', 'dueDate must be a calendar date, YYYY-MM-DD.', { field: 'dueDate' });
  }
  return value.trim();
}
