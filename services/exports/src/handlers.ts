// The ExportService and ReportService RPCs as plain async functions of (request, ctx), derived from
// the service modules (handlersOf: each RPC is the exported function of its name). The gRPC
// binding is one line each (server.ts); tests call the same functions directly.
import type { BlobStore } from '@fieldops/kit/blobs';
import { handlersOf, type DomainHandlers } from '@fieldops/kit/grpc';
import type { DocumentStore } from '@fieldops/kit/store';
import { tenantExports } from '@fieldops/proto';
import * as exportsService from './exports/exports.service.ts';
import type { ExportSettings } from './exports/export-settings.ts';
import * as reports from './reports/reports.service.ts';

export type ExportHandlers = DomainHandlers<tenantExports.ExportServiceService>;
export type ReportHandlers = DomainHandlers<tenantExports.ReportServiceService>;

export function createExportHandlers(deps: {
  store: DocumentStore;
  blobs: BlobStore;
  settings: Pick<ExportSettings, 'linkSeconds'>;
  wake: () => void;
}): ExportHandlers {
  return handlersOf(tenantExports.ExportServiceService, deps, exportsService);
}

export function createReportHandlers(store: DocumentStore): ReportHandlers {
  return handlersOf(tenantExports.ReportServiceService, store, reports);
}
