// The exports domain: tenant exports (queued here, packaged in the background) and saved reports.
import type { BlobStore } from '@fieldops/kit/blobs';
import type { Logger } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import { makePrivateDir, tightenTree } from '@fieldops/kit/process';
import { defineExportCollections } from './collections.js';
import type { ExportSettings } from './exports/export-settings.js';
import {
  createExportHandlers,
  createReportHandlers,
  type ExportHandlers,
  type ReportHandlers,
} from './handlers.js';
import { startPackager, type Packager } from './packager/packager.js';
import type { TenantSource } from './packager/tenant-sources.js';

export interface ExportsDomain {
  exports: ExportHandlers;
  reports: ReportHandlers;
  /** Starts packaging queued exports (and resuming unfinished ones); stop it to shut down. */
  startPackager(sources: readonly TenantSource[], logger: Pick<Logger, 'warn' | 'error'>): Promise<Packager>;
}

export async function openExportsDomain(deps: {
  store: DocumentStore;
  blobs: BlobStore;
  settings: ExportSettings;
}): Promise<ExportsDomain> {
  await defineExportCollections(deps.store);
  let packager: Packager | undefined;
  return {
    exports: createExportHandlers({ ...deps, wake: () => packager?.wake() }),
    reports: createReportHandlers(deps.store),
    startPackager: async (sources, logger) => {
      // Staged tables and archives hold a whole tenant: 0700/0600, tightened when older ones were not.
      await makePrivateDir(deps.settings.workDir);
      await tightenTree(deps.settings.workDir);
      packager = startPackager({ ...deps, sources, logger });
      return packager;
    },
  };
}

export { EXPORT_COLLECTIONS, defineExportCollections } from './collections.js';
export { createExportHandlers, createReportHandlers } from './handlers.js';
export type { ExportHandlers, ReportHandlers } from './handlers.js';
export { exportSettingsFromEnv } from './exports/export-settings.js';
export type { ExportSettings } from './exports/export-settings.js';
export type { Packager } from './packager/packager.js';
