// How the packager paces itself and how long what it makes lives. Defaults are for production;
// tests shorten them through the environment.
//   FIELDOPS_EXPORT_RETENTION_HOURS    how long a ready archive is kept and offered (default 168)
//   FIELDOPS_EXPORT_LINK_SECONDS       lifetime of each download link (default 900)
//   FIELDOPS_EXPORT_LEASE_MS           how long a killed packager's claim holds (default 60000)
//   FIELDOPS_EXPORT_MAX_ATTEMPTS       packager starts before an export fails (default 3)
//   FIELDOPS_EXPORT_PHASE_DELAY_MS     a pause before each phase (default 0; lets a test stop
//                                      the platform while an export is between phases)
//   FIELDOPS_EXPORT_POLL_MS            how often the queue is looked at without a wake-up (1000)
//   FIELDOPS_EXPORT_DEPENDENCY_WAIT_MS how long an export waits out a dependency that is away (a
//                                      service restarting, the store or S3 unreachable) before it
//                                      fails naming the phase (default 600000: ten minutes)
//   FIELDOPS_EXPORT_RETRY_MS           the pause between two tries while it waits (default 5000)
import { wholeNumberFromEnv } from '@fieldops/kit';

export interface ExportSettings {
  retentionMs: number;
  linkSeconds: number;
  leaseMs: number;
  maxAttempts: number;
  phaseDelayMs: number;
  pollMs: number;
  dependencyWaitMs: number;
  retryMs: number;
  /** Local scratch space for staging files and the archive before it is stored. */
  workDir: string;
}

export function exportSettingsFromEnv(workDir: string, env: NodeJS.ProcessEnv = process.env): ExportSettings {
  return {
    retentionMs: wholeNumberFromEnv(env, 'FIELDOPS_EXPORT_RETENTION_HOURS', 168) * 3_600_000,
    linkSeconds: wholeNumberFromEnv(env, 'FIELDOPS_EXPORT_LINK_SECONDS', 900),
    leaseMs: wholeNumberFromEnv(env, 'FIELDOPS_EXPORT_LEASE_MS', 60_000),
    maxAttempts: Math.max(1, wholeNumberFromEnv(env, 'FIELDOPS_EXPORT_MAX_ATTEMPTS', 3)),
    phaseDelayMs: wholeNumberFromEnv(env, 'FIELDOPS_EXPORT_PHASE_DELAY_MS', 0),
    pollMs: Math.max(50, wholeNumberFromEnv(env, 'FIELDOPS_EXPORT_POLL_MS', 1000)),
    dependencyWaitMs: wholeNumberFromEnv(env, 'FIELDOPS_EXPORT_DEPENDENCY_WAIT_MS', 600_000),
    retryMs: Math.max(50, wholeNumberFromEnv(env, 'FIELDOPS_EXPORT_RETRY_MS', 5_000)),
    workDir,
  };
}
