// The exports gRPC server: ExportService and ReportService over the store exports owns.
import { bindDomain, listenOf, startGrpcServer, type GrpcListen, type GrpcServer } from '@fieldops/kit/grpc';
import { tenantExports } from '@fieldops/proto';
import type { ExportHandlers, ReportHandlers } from './handlers.ts';

export function startExportsServer(
  options: GrpcListen & {
    exports: ExportHandlers;
    reports: ReportHandlers;
  },
): Promise<GrpcServer> {
  return startGrpcServer({
    ...listenOf(options),
    services: [
      bindDomain(tenantExports.ExportServiceService, options.exports),
      bindDomain(tenantExports.ReportServiceService, options.reports),
    ],
  });
}
