// Checks of the capture fields every RPC repeats: the gateway validates first, but a service
// never trusts a caller it cannot see.
import { CAPTURE_FIELD_LIMITS } from '@fieldops/contracts';
import { AppError } from '@fieldops/kit';

/** The value when it is one of `allowed`, the fallback when empty; field_invalid_enum otherwise. */
export function enumField<T extends string>(
  field: string,
  value: string,
  allowed: readonly T[],
): T | undefined {
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (!(allowed as readonly string[]).includes(trimmed)) {
    throw new AppError(
      'field_invalid_enum',
      `${field} must be one of ${allowed.join(', ')} (got "${trimmed.slice(0, 50)}").`,
      {
        field,
        allowed,
      },
    );
  }
  return trimmed as T;
}

export function textField(field: string, value: string): string {
  const trimmed = value.trim();
  if (trimmed.length > CAPTURE_FIELD_LIMITS.text) {
    throw new AppError(
      'field_too_long',
      `${field} must be at most ${CAPTURE_FIELD_LIMITS.text} characters.`,
      {
        field,
      },
    );
  }
  return trimmed;
}

export function requiredId(field: string, value: string): string {
  const id = value.trim();
  if (!id) throw new AppError('field_required', `${field} is required.`, { field });
  return id;
}
