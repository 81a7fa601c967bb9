// Small rules for field values that the records of every service share.
import { AppError } from '../errors.ts';

/** Trimmed text, or undefined when blank: an empty optional field means "not given". */
export function cleanText(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/** The form emails are compared in (dedupe, customer match): trimmed and lower-cased. */
export const emailKeyOf = (email: string | undefined): string | undefined => cleanText(email)?.toLowerCase();

/** A required name: trimmed, and refused when blank (the gateway checks too; this is the backstop). */
export function requiredName(value: string): string {
  const name = cleanText(value);
  if (!name) throw new AppError('field_required', 'name must not be empty.', { field: 'name' });
  return name;
}

/**
 * Refuses a text field longer than its limit, with the error the gateway's schema gives for it
 * (field_too_long naming the field). The limits are data in @fieldops/contracts; a service checks
 * them again so a direct call meets the same rule. Length is counted after trimming, as stored.
 * `within` names a nested object as the gateway's paths do (figures.0 gives figures.0.label).
 */
export function checkLengths(limits: Readonly<Record<string, number>>, fields: object, within = ''): void {
  for (const [key, maxLength] of Object.entries(limits)) {
    const value: unknown = (fields as Record<string, unknown>)[key];
    if (typeof value === 'string' && value.trim().length > maxLength) {
      const field = within ? `${within}.${key}` : key;
      throw new AppError('field_too_long', `${field} must be at most ${maxLength} characters.`, {
        field,
        maxLength,
      });
    }
  }
}

/** checkLengths for each text of a list (or each value of a map), named as the gateway names them. */
export function checkEachLength(
  field: string,
  maxLength: number,
  values: readonly string[] | Readonly<Record<string, string>>,
): void {
  checkLengths(Object.fromEntries(Object.keys(values).map((key) => [key, maxLength])), values, field);
}

/**
 * Refuses a list with more entries, or a number larger, than its limit, with the error the
 * gateway's schema gives for it (field_invalid naming the field): the count limits of
 * @fieldops/contracts, checked again by the service like checkLengths.
 */
export function checkMaximums(limits: Readonly<Record<string, number>>, fields: object): void {
  for (const [field, max] of Object.entries(limits)) {
    const value: unknown = (fields as Record<string, unknown>)[field];
    const size = Array.isArray(value) ? value.length : typeof value === 'number' ? value : undefined;
    if (size !== undefined && size > max) {
      throw new AppError('field_invalid', `${field} must be at most ${max}.`, { field });
    }
  }
}

/**
 * The value of an optional field after a PATCH: absent keeps the current value, an empty string
 * clears it (there is no JSON null in the request messages to say "clear").
 */
export const patched = (current: string | undefined, sent: string | undefined): string | undefined =>
  sent === undefined ? current : cleanText(sent);

/** Drops undefined members so a stored document never holds them (sparse keys then read "missing"). */
export function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined)) as T;
}
