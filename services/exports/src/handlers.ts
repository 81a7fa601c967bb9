// The ExportService and ReportService RPCs as plain async functions of (request, ctx). The gRPC
// binding is one line each (server.ts); tests call the same functions directly.
import type { BlobStore } from '@fieldops/kit/blobs';
import type { DomainHandlers } from '@fieldops/kit/grpc';
import type { DocumentStore } from '@fieldops/kit/store';
import type { tenantExports } from '@fieldops/proto';
import { createExport, getExport, listExports } from './exports/exports.service.js';
import type { ExportSettings } from './exports/export-settings.js';
import { getReport, listReports, saveReport } from './reports/reports.service.js';

export type ExportHandlers = DomainHandlers<tenantExports.ExportServiceService>;
export type ReportHandlers = DomainHandlers<tenantExports.ReportServiceService>;

export function createExportHandlers(deps: {
  store: DocumentStore;
  blobs: BlobStore;
  settings: Pick<ExportSettings, 'linkSeconds'>;
  wake: () => void;
}): ExportHandlers {
  return {
    createExport: (request, ctx) => createExport(deps, request, ctx),
    listExports: (request, ctx) => listExports(deps, request, ctx),
    getExport: (request, ctx) => getExport(deps, request, ctx),
  };
}

export function createReportHandlers(store: DocumentStore): ReportHandlers {
  return {
    saveReport: (request, ctx) => saveReport(store, request, ctx),
    listReports: (request, ctx) => listReports(store, request, ctx),
    getReport: (request, ctx) => getReport(store, request, ctx),
  };
}
