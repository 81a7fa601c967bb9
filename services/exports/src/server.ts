// The exports gRPC server: ExportService and ReportService over the store exports owns.
import { bindDomain } from '@fieldops/kit/grpc/domain-binding';
import { startGrpcServer, type GrpcServer } from '@fieldops/kit/grpc/server';
import type { Logger } from '@fieldops/kit/log';
import { tenantExports } from '@fieldops/proto';
import type { ExportHandlers, ReportHandlers } from './handlers.js';

export function startExportsServer(options: {
  exports: ExportHandlers;
  reports: ReportHandlers;
  logger: Logger;
  host?: string;
  port?: number;
}): Promise<GrpcServer> {
  return startGrpcServer({
    host: options.host,
    port: options.port,
    logger: options.logger,
    services: [
      bindDomain(tenantExports.ExportServiceService, options.exports),
      bindDomain(tenantExports.ReportServiceService, options.reports),
    ],
  });
}
