// Where a worker records the quantities the built-in engine measured: the measurements service
// (RecordQuantities over gRPC, quantities.grpc.ts), which stores one snapshot per run id, so a
// retried run records once in effect.
import type { RequestContext } from '@fieldops/kit';
import type { measurements } from '@fieldops/proto';

export interface QuantitiesPort {
  record(
    snapshot: {
      projectId: string;
      runId: string;
      captureId: string;
      quantities: measurements.SiteQuantities;
      /** The run's stored point cloud, which stated regions are measured on (now and later). */
      files: measurements.CaptureFile[];
    },
    ctx: RequestContext,
  ): Promise<void>;
  close(): void;
}
