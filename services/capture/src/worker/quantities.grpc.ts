// The QuantitiesPort over gRPC: the measurements service's RecordQuantities, keyed by run.
import { callUnary, connectClient } from '@fieldops/kit/grpc';
import { limits } from '@fieldops/measure-engine';
import { measurements } from '@fieldops/proto';
import type { QuantitiesPort } from './quantities.port.ts';

export function connectGrpcQuantities(address: string): QuantitiesPort {
  const client = connectClient(measurements.MeasurementServiceClient, address);
  return {
    async record(snapshot, ctx) {
      // Recording measures the stored cloud again when the project has stated regions.
      await callUnary(
        client,
        'recordQuantities',
        snapshot,
        { ...ctx, idempotencyKey: `quantities#${snapshot.runId}` },
        { timeoutMs: limits.MEASURING_DEADLINE_MS },
      );
    },
    close: () => client.close(),
  };
}
