// Two-phase confirmation (Authentication 5): an irreversible or binding operation first answers
// 409 confirmation_required with a token bound to the tenant, the credential, the operation and a
// hash of the exact payload; the identical request re-sent with the token is performed.
import { createHash, randomBytes } from 'node:crypto';
import { AppError } from '@fieldops/kit';
import type { FastState } from '@fieldops/kit/fast';
import { CONFIRM_TOKEN_TTL_MS } from '../limits.ts';
import { CONFIRM_HEADER } from './write-headers.ts';

export interface ConfirmBinding {
  tenantId: string;
  credentialId: string;
  operationId: string;
  payload: unknown;
}

const digest = (binding: ConfirmBinding): string =>
  createHash('sha256')
    .update(JSON.stringify([binding.tenantId, binding.credentialId, binding.operationId, binding.payload]))
    .digest('hex');

/** True when `token` was minted for exactly this binding and is unused; the token is spent either way. */
export async function redeemConfirmation(
  fast: FastState,
  token: string,
  binding: ConfirmBinding,
): Promise<boolean> {
  const stored = await fast.take(`confirm:${token}`);
  return stored === digest(binding);
}

/** Mints a token and builds the 409 the caller answers by re-sending with it. */
export async function demandConfirmation(
  fast: FastState,
  binding: ConfirmBinding,
  willDo: Record<string, unknown>,
  reason: 'first' | 'mismatch',
): Promise<AppError> {
  const token = `cfm_${randomBytes(24).toString('base64url')}`;
  await fast.put(`confirm:${token}`, digest(binding), CONFIRM_TOKEN_TTL_MS);
  const expiresAt = new Date(Date.now() + CONFIRM_TOKEN_TTL_MS).toISOString();
  const sentence =
    reason === 'first'
      ? `This operation needs confirmation: re-send the identical request with the ${CONFIRM_HEADER} header set to the attached confirmToken within 10 minutes.`
      : `The confirmation token is unknown, expired, already used or was issued for a different request; a new one is attached.`;
  return new AppError('confirmation_required', sentence, {
    confirmToken: token,
    confirmHeader: CONFIRM_HEADER,
    expiresAt,
    willDo,
  });
}
