// The exports domain: tenant exports (queued here, packaged in the background) and saved reports.
import type { BlobStore } from '@fieldops/kit/blobs';
import type { Logger } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import { makePrivateDir, tightenTree } from '@fieldops/kit/process';
import { defineExportCollections } from './collections.ts';
import type { ExportSettings } from './exports/export-settings.ts';
import {
  createExportHandlers,
  createReportHandlers,
  type ExportHandlers,
  type ReportHandlers,
} from './handlers.ts';
import { startPackager, type Packager } from './packager/packager.ts';
import type { TenantSource } from './packager/tenant-sources.ts';

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

export { EXPORT_COLLECTIONS, defineExportCollections } from './collections.ts';
export { createExportHandlers, createReportHandlers } from './handlers.ts';
export type { ExportHandlers, ReportHandlers } from './handlers.ts';
export { exportSettingsFromEnv } from './exports/export-settings.ts';
export type { ExportSettings } from './exports/export-settings.ts';
export type { Packager } from './packager/packager.ts';
