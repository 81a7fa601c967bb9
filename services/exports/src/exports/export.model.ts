// A tenant export as stored and as the API shows it. Its status moves only through the declared
// machine (EXPORT_STATUS_MACHINE in contracts/): the packager's phases to ready, or to failed with
// the phase that failed.
import type { Complete } from '@fieldops/kit/domain';
import { EXPORT_STATUS_MACHINE, type ExportPhase, type ExportStatus } from '@fieldops/contracts';
import type { Doc } from '@fieldops/kit/store';
import type { tenantExports } from '@fieldops/proto';

export { EXPORT_PHASES, type ExportPhase, type ExportStatus } from '@fieldops/contracts';

export interface ExportDoc extends Doc {
  status: ExportStatus;
  error?: { phase: ExportPhase; message: string };
  /** Blob key of the archive, set together with ready. */
  archiveKey?: string;
  sizeBytes?: number;
  sha256?: string;
  readyAt?: string;
  expiresAt?: string;
  attempts: number;
  requestedBy: string;
  createdAt: string;
  updatedAt: string;
  opId?: string;
}

/** Ready or failed: a status the machine never leaves. */
export const isSettled = (doc: ExportDoc): boolean => EXPORT_STATUS_MACHINE.isFinal(doc.status);

export function toExportView(doc: ExportDoc): tenantExports.TenantExport {
  return {
    id: doc.id,
    status: doc.status,
    error: doc.error || undefined,
    sizeBytes: doc.sizeBytes ?? 0,
    sha256: doc.sha256 ?? '',
    expiresAt: doc.expiresAt ?? '',
    downloadUrl: '',
    downloadUrlExpiresAt: '',
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    readyAt: doc.readyAt ?? '',
    requestedBy: doc.requestedBy,
    opId: doc.opId ?? '',
    attempts: doc.attempts,
  } satisfies Complete<tenantExports.TenantExport>;
}
