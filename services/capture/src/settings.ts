// Operator settings of the capture service, read once from the environment.
import { ConfigError } from '@fieldops/kit/config';

export interface CaptureSettings {
  /** Flat, non-refundable fee billed when an upload is cancelled (FIELDOPS_CAPTURE_CANCEL_FEE_CENTS). */
  cancelFeeCents: number;
  /** NodeODM base URL (FIELDOPS_NODEODM_URL); unset means image-only captures are infeasible. */
  nodeOdmUrl: string | undefined;
}

export const DEFAULT_CANCEL_FEE_CENTS = 500;

export function captureSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): CaptureSettings {
  const fee = env['FIELDOPS_CAPTURE_CANCEL_FEE_CENTS']?.trim();
  const cancelFeeCents = fee ? Number(fee) : DEFAULT_CANCEL_FEE_CENTS;
  if (!Number.isSafeInteger(cancelFeeCents) || cancelFeeCents < 0) {
    throw new ConfigError([
      `FIELDOPS_CAPTURE_CANCEL_FEE_CENTS must be a whole number of cents (got "${fee}")`,
    ]);
  }
  const url = env['FIELDOPS_NODEODM_URL']?.trim();
  if (url && !/^https?:\/\//.test(url)) {
    throw new ConfigError([`FIELDOPS_NODEODM_URL must be an http(s) URL (got "${url}")`]);
  }
  return { cancelFeeCents, nodeOdmUrl: url || undefined };
}
