// Operator settings of the capture service, read once from the environment (and, for COLMAP,
// from the machine: the binary is looked for once, at start).
import { spawnSync } from 'node:child_process';
import { ConfigError } from '@fieldops/kit';

export interface ColmapSettings {
  /** The colmap binary (FIELDOPS_COLMAP_BIN, else `colmap` on the PATH). */
  bin: string;
  /** CPU threads one run may use (FIELDOPS_COLMAP_THREADS, default 2). */
  threads: number;
}

export interface CaptureSettings {
  /** Flat, non-refundable fee billed when an upload is cancelled (FIELDOPS_CAPTURE_CANCEL_FEE_CENTS). */
  cancelFeeCents: number;
  /** NodeODM base URL (FIELDOPS_NODEODM_URL); unset means NodeODM is not an engine here. */
  nodeOdmUrl: string | undefined;
  /** COLMAP when its binary answered at start; absent means COLMAP is not an engine here. */
  colmap?: ColmapSettings;
}

export const DEFAULT_CANCEL_FEE_CENTS = 500;
export const DEFAULT_COLMAP_THREADS = 2;

/** Whether `bin` runs as COLMAP (`colmap help` exits 0 and names itself). */
export function colmapAnswers(bin: string): boolean {
  const probe = spawnSync(bin, ['help'], { encoding: 'utf8', timeout: 10_000 });
  return probe.status === 0 && /COLMAP/.test(probe.stdout ?? '');
}

function colmapFromEnv(env: NodeJS.ProcessEnv): ColmapSettings | undefined {
  const configured = env['FIELDOPS_COLMAP_BIN']?.trim();
  const threadsText = env['FIELDOPS_COLMAP_THREADS']?.trim();
  const threads = threadsText ? Number(threadsText) : DEFAULT_COLMAP_THREADS;
  if (!Number.isInteger(threads) || threads < 1 || threads > 256) {
    throw new ConfigError([
      `FIELDOPS_COLMAP_THREADS must be a whole number from 1 to 256 (got "${threadsText}")`,
    ]);
  }
  if (configured === 'off') return undefined;
  const bin = configured || 'colmap';
  if (colmapAnswers(bin)) return { bin, threads };
  if (configured) {
    throw new ConfigError([
      `FIELDOPS_COLMAP_BIN is "${configured}" but it does not run as COLMAP; fix the path, or set it to "off".`,
    ]);
  }
  return undefined;
}

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
  const colmap = colmapFromEnv(env);
  return { cancelFeeCents, nodeOdmUrl: url || undefined, ...(colmap ? { colmap } : {}) };
}
