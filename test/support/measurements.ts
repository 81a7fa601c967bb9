// Seeds the measurements service the way the reconstruction workers will: the built-in engine
// measures a synthetic point cloud, and the result goes to MeasurementService over real gRPC.
import { systemContext } from '@fieldops/kit';
import { callUnary, connectClient } from '@fieldops/kit/grpc';
import {
  bufferSource,
  measureRegions,
  quantitiesMessage,
  type RegionInput,
  type XY,
} from '@fieldops/measure-engine';
import { measurements } from '@fieldops/proto';
import { cone, onPlane, plyBinary, scatter } from '@fieldops/measure-engine/testing';
import type { TestPlatform } from './harness.ts';

export const square = (x0: number, y0: number, size: number): XY[] => [
  [x0, y0],
  [x0 + size, y0],
  [x0 + size, y0 + size],
  [x0, y0 + size],
];

/** A cone of radius 10 m centred at (20, 20) on a tilted pad: true volume πr²h/3. */
export const coneVolume = (height: number): number => (Math.PI * 100 * height) / 3;

export const stockpileRegions: RegionInput[] = [
  { id: 'pile-a', name: 'Stockpile A', polygon: square(7, 7, 26), material: 'gravel' },
];

/** PLY bytes of the cone of `height` metres, as a capture would upload them. */
export function conePly(height: number, seed = 1): Buffer {
  const cloud = scatter(onPlane(cone(20, 20, 10, height), 50, 0.02, -0.01), {
    size: 40,
    density: 12,
    sigma: 0.02,
    seed,
  });
  return Buffer.from(plyBinary(cloud));
}

/** The engine's quantities of a cone of `height` metres, measured from PLY bytes. */
export async function measureCone(height: number, seed = 1): Promise<measurements.SiteQuantities> {
  const cloud = scatter(onPlane(cone(20, 20, 10, height), 50, 0.02, -0.01), {
    size: 40,
    density: 12,
    sigma: 0.02,
    seed,
  });
  const q = await measureRegions(bufferSource(plyBinary(cloud), 'stockpile.ply'), stockpileRegions, {
    accuracy: { sensor: 'lidar', control: 'gcp' },
  });
  return quantitiesMessage(q);
}

export interface MeasurementsRpc {
  recordQuantities(
    request: Omit<measurements.RecordQuantitiesRequest, 'files'> & { files?: measurements.CaptureFile[] },
    tenantId: string,
  ): Promise<measurements.QuantitiesWrite>;
  recordTakeoff(
    request: measurements.RecordTakeoffRequest,
    tenantId: string,
  ): Promise<measurements.TakeoffWrite>;
  measureCapture(
    request: measurements.MeasureCaptureRequest,
    tenantId: string,
  ): Promise<measurements.QuantitiesWrite>;
  close(): void;
}

/** What a worker sends: a system context for the tenant, no token. */
const workerContext = (tenantId: string, operation: string) =>
  systemContext({ id: tenantId, currency: 'USD', defaultVertical: 'survey' }, operation);

/**
 * The workers' RPCs to the platform's measurements service (a TestPlatform, in process or on a
 * cluster, or `{ serviceAddress }` of a platform a script runs).
 */
export function measurementsRpc(platform: Pick<TestPlatform, 'serviceAddress'>): MeasurementsRpc {
  const client = connectClient(
    measurements.MeasurementServiceClient,
    platform.serviceAddress('measurements'),
  );
  return {
    recordQuantities: (request, tenantId) =>
      callUnary(
        client,
        'recordQuantities',
        { files: [], ...request },
        workerContext(tenantId, 'recordQuantities'),
      ),
    recordTakeoff: (request, tenantId) =>
      callUnary(client, 'recordTakeoff', request, workerContext(tenantId, 'recordTakeoff')),
    measureCapture: (request, tenantId) =>
      callUnary(client, 'measureCapture', request, workerContext(tenantId, 'measureCapture'), {
        timeoutMs: 30_000,
      }),
    close: () => client.close(),
  };
}
