// A token issued from a form is issued once, however often the form is sent (a double click, a
// resend after a network blip). The console sends an Idempotency-Key per form it shows; the first
// request with a key claims it for the session, and a repeat is refused with 409 conflict naming
// the token already issued, never issuing a second one. The secret stays shown-once: a repeat
// cannot see it.
import { AppError } from '@fieldops/kit';
import type { FastState } from '@fieldops/kit/fast';
import { IDEMPOTENCY_KEY_MAX } from '../limits.ts';

/** How long a key is remembered: longer than anyone keeps a form open without reloading. */
const KEY_TTL_MS = 24 * 60 * 60_000;
const PENDING = 'pending';
const KEY = /^[\w.:-]+$/;

export function idempotencyKeyOf(header: string | undefined): string | undefined {
  if (header === undefined || header === '') return undefined;
  if (header.length > IDEMPOTENCY_KEY_MAX || !KEY.test(header)) {
    throw new AppError(
      'field_invalid',
      `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} letters, digits, '.', ':', '_' or '-'.`,
      { field: 'Idempotency-Key' },
    );
  }
  return header;
}

/** Runs `issue` once per (session, key); without a key it simply runs. */
export async function issueOnce<T extends { id: string }>(
  fast: FastState,
  scope: { sessionId: string; key: string | undefined },
  issue: () => Promise<T>,
): Promise<T> {
  if (!scope.key) return issue();
  const slot = `portal-issue:${scope.sessionId}:${scope.key}`;
  if (!(await fast.putIfAbsent(slot, PENDING, KEY_TTL_MS))) {
    const earlier = await fast.get(slot);
    throw new AppError(
      'conflict',
      earlier && earlier !== PENDING
        ? `This form already issued token ${earlier}; its secret was shown once. Reload the page to issue another.`
        : 'This form is being sent already; wait for its answer.',
      { field: 'Idempotency-Key', ...(earlier && earlier !== PENDING ? { tokenId: earlier } : {}) },
    );
  }
  try {
    const issued = await issue();
    await fast.put(slot, issued.id, KEY_TTL_MS);
    return issued;
  } catch (error) {
    await fast.delete(slot); // nothing was issued: the same form may be corrected and sent again
    throw error;
  }
}
